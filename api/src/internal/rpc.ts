/**
 * The one error of chain reads: balances and EVM sign-in checks both throw it, and the API answers it as
 * 502 `The RPC of {chain} is unavailable`.
 */

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
