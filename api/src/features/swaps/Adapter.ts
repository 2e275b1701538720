/**
 * What the swap routes need of a venue (a DEX): the ways it can make a swap, the call that makes one, and
 * the contract a visitor approves. Uniswap v2 (`UniswapV2.ts`) and v3 (`UniswapV3.ts`) are built in, chosen
 * by a chain's `swaps` configuration or, for the mainnets Uniswap deploys on, by `Canonical.ts`. To swap
 * through an aggregator too, implement {@link SwapAdapter} and pass `swaps` to `Service.create`.
 * @example
 * const swaps: Swaps.AdapterOf = (chain) => [...Swaps.Venues.fromConfig(chain), myAggregator]
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

/** Which side of the swap is exact: what the visitor gives, or what they get. */
export type SwapType = 'exactInput' | 'exactOutput'

export type QuoteRequest = {
  from: Asset
  to: Asset
  type: SwapType
  /** The exact side's amount in its smallest unit (`from`'s for exactInput, `to`'s for exactOutput); more than 0. */
  amount: bigint
  /** Every venue is read at this block, so their quotes compare. */
  blockNumber: bigint
}

/** One way a venue can make a swap, at one block. */
export type Quote = Omit<QuoteRequest, 'amount'> & {
  /** The venue's adapter id, e.g. `uniswap-v3`. */
  venue: string
  /** What the swap takes of `from` and gives of `to`, in their smallest units; one of them is the request's amount. */
  fromAmount: bigint
  toAmount: bigint
  /** The assets the swap passes through, `from` first and `to` last (the native sentinel for the native currency). */
  route: readonly Address[]
  /** Each hop's pool fee in hundredths of a basis point (3000 is 0.3 %): one fewer than `route`'s assets. */
  fees: readonly number[]
  /** How far the pools' price moves against the visitor, in percent. */
  priceImpact: number
  /** The gas the swap is expected to use. */
  gas: bigint
}

/** An EVM call for the visitor's wallet to sign. */
export type Call = { to: Address; data: Hex; value: bigint }

export type SwapRequest = {
  quote: Quote
  /**
   * The swap's bound at the visitor's slippage, or it reverts: the least it may give of `to` (exactInput),
   * or the most it may take of `from` (exactOutput).
   */
  limit: bigint
  /** Who gets `to` (the visitor). */
  recipient: Address
  /** Unix seconds after which the swap reverts rather than run at a stale price. */
  deadline: bigint
}

export type SwapAdapter = {
  /** Names the venue in quotes and requests, e.g. `uniswap-v2`. */
  id: string
  /** What a visitor reads, e.g. `Uniswap v2`. */
  name: string
  /** The contract a visitor lets spend an ERC-20 before swapping it through this venue: its router. */
  spender: Address
  /**
   * Every way the venue can make the swap at the request's block, none when no pool can (none, empty, too
   * little liquidity, or an amount too small to give anything).
   * @throws {RpcError} when the chain cannot be read
   */
  quote(request: QuoteRequest): Promise<Quote[]>
  /** The call that makes a quoted swap. */
  buildSwap(request: SwapRequest): Promise<Call>
}

/** The venues of a configured chain, none for a chain without swaps. */
export type AdapterOf = (chain: Chain) => readonly SwapAdapter[]
