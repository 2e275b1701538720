/**
 * How the API fails: every error is JSON `{ message }` with its status. The texts are what clients match on,
 * so they live here, each once.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { RpcBusyError, RpcError } from '../internal/rpc.ts'

/** Error texts clients may match on. */
export const messages = {
  projectNotConfigured: 'Project id not configured',
  invalidAppConfiguration: 'Invalid App Configuration',
  notFound: 'Not found',
  internal: 'Something went wrong',
  invalidJson: 'The body is not valid JSON',
  notJson: 'The body must be sent as application/json',
  tooLarge: 'The body is too large',
  tooManyRequests: 'Too many requests, try again later',
  timedOut: 'The request took too long',
  invalidEvmAddress: 'Invalid EVM address',
  invalidSolanaAddress: 'Invalid Solana address',
  invalidBitcoinAddress: 'Invalid Bitcoin address',
  unsupportedChain: (id: string) => `Unsupported chain: ${id}`,
  rpcUnavailable: (id: string) => `The RPC of ${id} is unavailable`,
  rpcBusy: (id: string) => `The RPC of ${id} is busy, try again later`,
  analyticsBusy: 'Too many events waiting to be stored, try again later',
} as const

/** An error answered as `{ message }` with `status` (and `headers`, e.g. a 429's `Retry-After`). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** The answer to a path no route serves. */
export function notFound(c: Context): Response {
  return c.json({ message: messages.notFound }, 404)
}

/**
 * The answer to a thrown error: its own status for an {@link HttpError}, 502 when a chain's RPC could not
 * be reached (the request was fine, the upstream was not), 503 with `Retry-After` when it has all the reads
 * it may have under way, else a 500 that tells nothing of the cause.
 */
export function onError(error: Error, c: Context): Response {
  if (error instanceof HttpError) return c.json({ message: error.message }, error.status, error.headers)
  if (error instanceof RpcError) return c.json({ message: messages.rpcUnavailable(error.chainId) }, 502)
  if (error instanceof RpcBusyError)
    return c.json({ message: messages.rpcBusy(error.chainId) }, 503, {
      'Retry-After': String(error.retryAfterS),
    })
  console.error('[airlock-api]', c.req.method, c.req.path, error)
  return c.json({ message: messages.internal }, 500)
}
