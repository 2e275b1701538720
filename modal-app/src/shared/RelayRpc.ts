/**
 * JSON-RPC through the API's relay (`/v1/rpc/{chainId}`): the one node the modal's features read a chain
 * through, never an RPC URL the host page chose, whose node could say tokens arrived or a simulation passed
 * when they did not.
 */

/** A relay that has not answered in 20 s is taken as down. */
const timeoutMs = 20_000

export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    message: string,
    /** The node's JSON-RPC error code; 0 when the relay could not be asked or answered nonsense. */
    readonly code = 0,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export type RelayOptions = {
  /** The API's URL of a path, with the project's query (`Api.Client.endpoint`). */
  endpoint(path: string): string
  /** CAIP-2, `eip155:…`. */
  chainId: string
  /** What an unreachable relay is called where the visitor reads it. */
  unreachable: string
  /** What an answer with neither a result nor an error is called. @default unreachable */
  unexpected?: string | undefined
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

/**
 * @example
 * const rpc = RelayRpc.create({ endpoint, chainId: 'eip155:31337', unreachable: 'The network is unreachable' })
 * await rpc('eth_blockNumber', [])
 */
export function create(options: RelayOptions): (method: string, params: unknown[]) => Promise<unknown> {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  const url = options.endpoint(`/v1/rpc/${options.chainId}`)
  return async (method, params) => {
    let answer:
      | { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
      | undefined
    try {
      const response = await fetcher(url, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      })
      answer = await response.json()
    } catch (cause) {
      throw new RpcError(options.unreachable, 0, cause)
    }
    if (answer?.error) {
      const { code, message, data } = answer.error
      throw new RpcError(typeof message === 'string' ? message : 'JSON-RPC error', Number(code) || 0, data)
    }
    if (!answer || !('result' in answer)) throw new RpcError(options.unexpected ?? options.unreachable)
    return answer.result
  }
}
