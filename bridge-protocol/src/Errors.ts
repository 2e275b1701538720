/**
 * Errors that cross the bridge. Every error is a value with a numeric `code` (EIP-1193 / JSON-RPC where one
 * applies), a short message and optional `data`. On the wire it is `{ code, message, data }`; `fromWire`
 * rebuilds the same class on the other side, so a dApp's `if (e.code === 4001)` works as with any wallet.
 */

import { publicViews } from './Views.ts'

/** The shape an error has while it crosses a `MessagePort`. */
export type WireError = { code: number; message: string; data?: unknown }

/** Base of every Airlock error. */
export class BaseError extends Error {
  override name = 'AirlockError'
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, options: Options = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.data = options.data
  }
}

/** Texts are those of EIP-1193 and EIP-1474 so wallets and dApps recognise them. */
export const messages = {
  4001: 'User rejected the request.',
  4100: 'The requested method and/or account has not been authorized by the user.',
  4200: 'The Provider does not support the requested method.',
  4900: 'The Provider is disconnected from all chains.',
  4901: 'The Provider is not connected to the requested chain.',
  4902: 'Unrecognized chain ID.',
  5710: 'Unsupported chain.',
  [-32602]: 'Invalid parameters were provided to the RPC method.',
  [-32603]: 'An internal error was received.',
} as const

type Options = { cause?: unknown; data?: unknown }
type Coded = (new (message?: string, options?: Options) => BaseError) & { readonly code: number }

// One small factory instead of nine hand-written classes: the host SDK ships all of them.
function coded(code: keyof typeof messages, name: string): Coded {
  return class extends BaseError {
    static readonly code = code
    override name = name
    constructor(message: string = messages[code], options?: Options) {
      super(code, message, options)
    }
  }
}

export const UserRejectedRequestError = coded(4001, 'UserRejectedRequestError')
export const UnauthorizedError = coded(4100, 'UnauthorizedError')
export const UnsupportedMethodError = coded(4200, 'UnsupportedMethodError')
export const DisconnectedError = coded(4900, 'DisconnectedError')
export const ChainDisconnectedError = coded(4901, 'ChainDisconnectedError')
export const UnrecognizedChainError = coded(4902, 'UnrecognizedChainError')
export const UnsupportedChainError = coded(5710, 'UnsupportedChainError')
export const InvalidParamsError = coded(-32602, 'InvalidParamsError')
export const InternalError = coded(-32603, 'InternalError')

/**
 * Why the host gave up on the modal frame: it never loaded (or never answered the hello), or a call that
 * waits for no person went unanswered. These strings are a public contract: hosts and analytics match them.
 */
export type TimeoutReason = 'iframe_load_failed' | 'iframe_request_timeout'

/**
 * The modal frame did not load, or a call that needs no user went unanswered. `data.reason` carries the
 * reason string so hosts can tell the two apart.
 */
export class TimeoutError extends BaseError {
  override name = 'TimeoutError'
  readonly reason: TimeoutReason
  constructor(reason: TimeoutReason) {
    super(
      -32603,
      reason === 'iframe_load_failed'
        ? 'The Airlock modal failed to load.'
        : 'The Airlock modal did not answer in time.',
      { data: { reason } },
    )
    this.reason = reason
  }
}

/**
 * What the modal throws for an `open({ view })` it does not know: a host newer than the modal, or a typo.
 * The message lists the views a host may open, so the developer sees the fix in the console.
 * @example
 * if (!Views.isPublicView(view)) throw Errors.unknownView(view)
 * // InvalidParamsError (-32602): Unknown view "Foo". Views a host may open: Connect, Account, …
 */
export function unknownView(name: string): BaseError {
  return new InvalidParamsError(`Unknown view "${name}". Views a host may open: ${publicViews.join(', ')}.`)
}

/**
 * The numeric `code` of anything thrown, if it has one (EIP-1193 errors, JSON-RPC errors, ours).
 * @example
 * if (Errors.codeOf(error) === Errors.UserRejectedRequestError.code) return
 */
export function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return typeof code === 'number' ? code : undefined
}

/**
 * The message of anything thrown, or `fallback` when it has none worth showing.
 * @example
 * snackbar.show('error', Errors.messageOf(error, texts.errors.fallback))
 */
export function messageOf(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | null | undefined)?.message
  return typeof message === 'string' && message ? message : fallback
}

const classes = [
  UserRejectedRequestError,
  UnauthorizedError,
  UnsupportedMethodError,
  DisconnectedError,
  ChainDisconnectedError,
  UnrecognizedChainError,
  UnsupportedChainError,
  InvalidParamsError,
  InternalError,
] as const

/** Turns anything thrown into the wire shape; unknown throwables become -32603 without leaking stacks. */
export function toWire(error: unknown): WireError {
  if (isCoded(error)) {
    const wire: WireError = { code: error.code, message: error.message }
    const data = (error as { data?: unknown }).data
    if (data !== undefined && isCloneable(data)) wire.data = data
    return wire
  }
  return { code: -32603, message: error instanceof Error && error.message ? error.message : messages[-32603] }
}

/**
 * Rebuilds the error class that matches the wire code.
 * @example
 * const error = Errors.fromWire({ code: 4001, message: 'User rejected the request.' })
 * error instanceof Errors.UserRejectedRequestError // true
 */
export function fromWire(wire: WireError): BaseError {
  const reason = reasonOf(wire.data)
  if (reason) return new TimeoutError(reason)
  const Class = classes.find((c) => c.code === wire.code)
  const options = wire.data === undefined ? undefined : { data: wire.data }
  if (Class) return new Class(wire.message, options)
  return new BaseError(wire.code, wire.message, options)
}

function reasonOf(data: unknown): TimeoutReason | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const reason = (data as { reason?: unknown }).reason
  return reason === 'iframe_load_failed' || reason === 'iframe_request_timeout' ? reason : undefined
}

function isCoded(error: unknown): error is { code: number; message: string } {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return Number.isInteger(code) && typeof message === 'string'
}

function isCloneable(value: unknown): boolean {
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}
