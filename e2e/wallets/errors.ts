/** EIP-1193 / EIP-1474 error codes, reused by the Solana and Bitcoin wallets for the same situations. */
export const ErrorCode = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  unrecognizedChain: 4902,
  invalidParams: -32602,
  internal: -32603,
} as const

/** An Error with a numeric `code`, the shape dApps and wallet libraries test for. */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'ProviderRpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }
}

export function userRejected(): ProviderRpcError {
  return new ProviderRpcError(ErrorCode.userRejected, 'User rejected the request.')
}

export function unauthorized(detail: string): ProviderRpcError {
  return new ProviderRpcError(ErrorCode.unauthorized, `Unauthorized: ${detail}`)
}

export function invalidParams(detail: string): ProviderRpcError {
  return new ProviderRpcError(ErrorCode.invalidParams, `Invalid params: ${detail}`)
}

export function unsupportedMethod(method: string): ProviderRpcError {
  return new ProviderRpcError(
    ErrorCode.unsupportedMethod,
    `The Provider does not support the requested method: ${method}`,
  )
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
