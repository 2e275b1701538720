/**
 * The swap routes' own refusals, which clients may match on. The product's two (docs/behaviour.md §8; 'Network not supported for
 * Swaps', '… for Gas Price') are the contract's `swapTexts`; the shared ones (`Invalid EVM address`, `The
 * RPC of {chainId} is unavailable`) are `http/errors.ts`'s.
 */
export const swapMessages = {
  zeroAmount: 'The amount to swap must be more than 0',
  sameToken: 'A token cannot be swapped for itself',
  differentChains: 'The tokens and the account of a swap must be on one network',
  unknownToken: (id: string) => `Not a token this network swaps: ${id}`,
  unknownVenue: (id: string) => `Not a venue this network swaps on: ${id}`,
  noLiquidity: (from: string, to: string) => `No pool has the liquidity to swap ${from} for ${to}`,
  nativeNeedsNoApproval: (symbol: string) => `${symbol} needs no approval: it is the network's own currency`,
  /** `what` is `swap` or `approval`; `reason` the revert's (`UniswapV2Router: EXPIRED`) or the node's. */
  wouldFail: (what: 'swap' | 'approval', reason: string) => `The ${what} would fail: ${reason}`,
  cannotPay: (symbol: string) => `the account has not enough ${symbol} for the amount and the gas`,
  unknownRevert: 'it reverts for an unknown reason',
} as const
