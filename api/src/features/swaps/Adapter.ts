/**
 * What the swap routes need of a DEX: a quote, the call that makes it, and the contract a visitor approves.
 * Uniswap v2 (`UniswapV2.ts`) is the built-in one, chosen by a chain's `swaps.uniswapV2` configuration; to
 * swap through an aggregator, implement {@link SwapAdapter} and pass `swaps` to `Service.create`.
 * @example
 * const swaps: Swaps.AdapterOf = (chain) => (chain.id === 'eip155:1' ? myAggregator : Swaps.UniswapV2.fromConfig(chain))
 * Service.create({ db, config, swaps })
 */
import type { Address, Hex } from 'viem'
import type { Chain } from '../../Config.ts'

/** One side of a swap: an ERC-20, or the chain's native currency (`address` is then the `0xeeee…eeee` sentinel). */
export type Asset = {
  address: Address
  native: boolean
  symbol: string
  decimals: number
}

export type QuoteRequest = {
  from: Asset
  to: Asset
  /** What the visitor gives, in `from`'s smallest unit; more than 0. */
  amount: bigint
}

/** The best way the adapter found to make a swap, at one block. */
export type Quote = QuoteRequest & {
  /** What the swap gives at the quote's block, in `to`'s smallest unit. */
  toAmount: bigint
  /** The assets the swap passes through, `from` first and `to` last (the native sentinel for the native currency). */
  route: readonly Address[]
  /** How far the pools' price moves against the visitor, in percent. */
  priceImpact: number
  /** The gas the swap is expected to use. */
  gas: bigint
  blockNumber: bigint
}

/** An EVM call for the visitor's wallet to sign. */
export type Call = { to: Address; data: Hex; value: bigint }

export type SwapRequest = {
  quote: Quote
  /** The least the swap may give, or it reverts. */
  minimumToAmount: bigint
  /** Who gets `to` (the visitor). */
  recipient: Address
  /** Unix seconds after which the swap reverts rather than run at a stale price. */
  deadline: bigint
}

export type SwapAdapter = {
  /** Names the adapter in quote ids, e.g. `uniswap-v2`. */
  id: string
  /** The contract a visitor lets spend an ERC-20 before swapping it: the router, for Uniswap. */
  spender: Address
  /**
   * The best way to swap, or `undefined` when no pool can (none, empty, or an amount too small to give
   * anything).
   * @throws {RpcError} when the chain cannot be read
   */
  quote(request: QuoteRequest): Promise<Quote | undefined>
  /** The call that makes a quoted swap. */
  buildSwap(request: SwapRequest): Promise<Call>
}

/** The adapter of a configured chain, or `undefined` for a chain without swaps. */
export type AdapterOf = (chain: Chain) => SwapAdapter | undefined
