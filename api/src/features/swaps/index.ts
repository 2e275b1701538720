/** Swaps for the package's users: the adapter interface, to plug a DEX or an aggregator, and the built-in Uniswap v2. */
export type { AdapterOf, Asset, Call, Quote, QuoteRequest, SwapAdapter, SwapRequest } from './Adapter.ts'
export * as UniswapV2 from './UniswapV2.ts'
