/**
 * Chain reads' plumbing: the one error they throw (balances, EVM sign-in checks and smart sessions), which the
 * API answers as 502 `The RPC of {chain} is unavailable`, and the clients they read with.
 */
import { createPublicClient, http, type PublicClient } from 'viem'

/** A chain's RPC did not answer (or answered nonsense), so nothing can be said about the chain. */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    /** CAIP-2 id of the chain whose RPC failed. */
    readonly chainId: string,
    options?: { cause?: unknown },
  ) {
    super(`The RPC of ${chainId} is unavailable`, options)
  }
}

const clients = new Map<string, PublicClient>()

/**
 * One client per RPC URL, kept for the process: a read retries once and waits at most 10 s, so a dead node
 * fails a request quickly rather than holding it.
 */
export function evmClient(rpcUrl: string): PublicClient {
  let client = clients.get(rpcUrl)
  if (!client) {
    client = createPublicClient({ transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }) })
    clients.set(rpcUrl, client)
  }
  return client
}
