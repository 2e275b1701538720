/**
 * Swaps for the package's users: the venue interface, to plug a DEX or an aggregator, the built-in Uniswap v2
 * and v3, and the venues of a configured chain.
 */
export type {
  AdapterOf,
  Asset,
  Call,
  Quote,
  QuoteRequest,
  SwapAdapter,
  SwapRequest,
  SwapType,
} from './Adapter.ts'
export * as Canonical from './Canonical.ts'
export * as UniswapV2 from './UniswapV2.ts'
export * as UniswapV3 from './UniswapV3.ts'
export * as Venues from './Venues.ts'
