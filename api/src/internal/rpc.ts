/**
 * Chain reads' plumbing: the one error they throw (balances, EVM sign-in checks and smart sessions), which the
 * API answers as 502 `The RPC of {chain} is unavailable`, and the clients they read with.
 *
 * Every client here has CCIP-read (EIP-3668) off: viem otherwise answers a call that reverts with
 * `OffchainLookup` by fetching the URLs the revert names, so any contract a request points the API at (an
 * account whose sessions are listed, a signer checked by ERC-1271) could make the server GET or POST an
 * address of its network. ENS, the one reader that needs it, asks its gateways through `gateways.ts`.
 */
import { type CcipRequestParameters, createPublicClient, type Hex, http, type PublicClient } from 'viem'

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

/**
 * A chain's RPC has as many reads under way as the API lets one process send it (and more waiting), so
 * this one was not sent: the API answers 503 `The RPC of {chain} is busy, try again later` with Retry-After.
 */
export class RpcBusyError extends Error {
  override name = 'RpcBusyError'
  constructor(
    /** CAIP-2 id of the busy chain. */
    readonly chainId: string,
    /** Whole seconds after which a read may well be served. */
    readonly retryAfterS = 1,
  ) {
    super(`The RPC of ${chainId} is busy`)
  }
}

/** How a client's requests to its node go: viem's `http` transport options. */
export type Transport = {
  /** @default 1 */
  retryCount?: number
  /** ms before a retry. @default viem's (150, doubled each time) */
  retryDelay?: number
  /** ms a request may take. @default 10_000 */
  timeoutMs?: number
}

const clients = new Map<string, PublicClient>()

/**
 * One client per RPC URL and transport, kept for the process, with CCIP-read off. By default a read
 * retries once and waits at most 10 s, so a dead node fails a request quickly rather than holding it.
 * @example const block = await evmClient(chain.rpcUrl).getBlockNumber()
 */
export function evmClient(rpcUrl: string, transport: Transport = {}): PublicClient {
  const { retryCount = 1, retryDelay, timeoutMs = 10_000 } = transport
  const key = JSON.stringify([rpcUrl, retryCount, retryDelay, timeoutMs])
  let client = clients.get(key)
  if (!client) {
    client = createPublicClient({
      transport: http(rpcUrl, { retryCount, timeout: timeoutMs, ...(retryDelay ? { retryDelay } : {}) }),
      ccipRead: false,
    })
    clients.set(key, client)
  }
  return client
}

/**
 * A client whose CCIP-read lookups go through `request` (ENS's offchain names), and nowhere else: a new one
 * per caller, since `request` carries the caller's checks.
 * @example const ens = ccipClient(chain.rpcUrl, Gateways.create({ internal: [] }).request)
 */
export function ccipClient(
  rpcUrl: string,
  request: (parameters: CcipRequestParameters) => Promise<Hex>,
): PublicClient {
  return createPublicClient({
    transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }),
    ccipRead: { request },
  })
}
