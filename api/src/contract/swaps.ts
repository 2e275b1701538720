/**
 * Swaps (docs/behaviour.md §7 "convert"): the tokens a chain swaps, quotes, the allowance a swap needs, gas prices, and
 * the unsigned transactions of an approval and of a swap. The API builds them; the visitor's wallet signs
 * and sends them, so nothing here moves funds by itself.
 *
 * Tokens are CAIP-10 ids on their chain: `eip155:31337:0x5FbD…0aa3` for an ERC-20, and
 * `eip155:31337:0xeeee…eeee` ({@link nativeToken}) for the chain's native currency. Amounts are integers in
 * the token's smallest unit, as decimal strings, so no client rounds them through a float.
 */
import * as Caip from '@airlock/bridge-protocol/Caip'
import * as S from '@airlock/bridge-protocol/Shape'
import { chainId } from './balances.ts'
import { projectId, sdkField } from './common.ts'

/** The address that stands for a chain's native currency in a token id (the usual sentinel). */
export const nativeToken = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** docs/behaviour.md §9: the slippage tolerance when the client names none, in percent. */
export const defaultSlippagePercent = 1

/**
 * Which side of a swap is exact: `exactInput` swaps `amount` of `from` for as much `to` as it buys,
 * `exactOutput` buys `amount` of `to` for as little `from` as it takes (the names of SwapRouter02's calls).
 */
export const swapTypes = ['exactInput', 'exactOutput'] as const
export type SwapType = (typeof swapTypes)[number]

/** A venue's id: `uniswap-v2`, `uniswap-v3`. */
const venueId = S.string(40, 1, /^[a-z0-9-]+$/)

/** docs/behaviour.md §8's refusals for a chain that has no swaps configured. */
export const swapTexts = {
  unsupportedSwaps: 'Network not supported for Swaps',
  unsupportedGasPrice: 'Network not supported for Gas Price',
} as const

/** A CAIP-10 token id or account on an EVM chain. */
const evmAccount = S.check(
  S.string(120, 1, /^eip155:\d{1,20}:0x[0-9a-fA-F]{40}$/),
  Caip.isAccountId,
  Caip.invalidAccountId,
)
/** An amount in a token's smallest unit: a positive or zero integer, at most 78 digits (2^256). */
const units = S.string(78, 1, /^\d+$/)
/** A `0x` hex string (calldata, an address). */
const hex = S.string(200_000, 2, /^0x[0-9a-fA-F]*$/)

/** `GET /v1/convert/tokens`: the tokens `chainId` swaps. */
export const swapTokensQuery = S.object({ projectId, st: sdkField, sv: sdkField, chainId })
export type SwapTokensQuery = S.Infer<typeof swapTokensQuery>

/**
 * A token a chain swaps (docs/behaviour.md §3: the balance fields, `decimals` as a number, `logoUri`, `eip2612: false`).
 * The list carries no holder, so `value` and `quantity.numeric` are 0; `price` is in USD, 0 when unknown.
 */
export const swapToken = S.object({
  name: S.string(200),
  symbol: S.string(40),
  chainId: S.string(80),
  address: evmAccount,
  value: S.number(),
  price: S.number(),
  quantity: S.object({ decimals: S.string(4, 1, /^\d+$/), numeric: S.string(100, 1, /^\d+(\.\d+)?$/) }),
  decimals: S.number(0, 255),
  logoUri: S.string(2048),
  eip2612: S.literal(false),
})
export type SwapToken = S.Infer<typeof swapToken>

export const swapTokensAnswer = S.object({ tokens: S.array(swapToken, 500) })
export type SwapTokensAnswer = S.Infer<typeof swapTokensAnswer>

/**
 * `GET /v1/convert/quotes`: what `amount` of `from` buys of `to` for `userAddress` (CAIP-10s, same chain), or
 * with `type: 'exactOutput'` what buying `amount` of `to` takes. Every venue of the chain is quoted at one
 * block (`venue` asks one only); the answer lists each venue's best way, the best output net of gas first.
 */
export const swapQuoteQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  amount: units,
  /** @default 'exactInput' */
  type: S.optional(S.picklist(swapTypes)),
  venue: S.optional(venueId),
  userAddress: evmAccount,
  from: evmAccount,
  to: evmAccount,
  /** The gas price to estimate the network fee with, in wei; the chain's own when absent. */
  gasPrice: S.optional(units),
})
export type SwapQuoteQuery = S.Infer<typeof swapQuoteQuery>

/**
 * One way to make the swap. `toAmount` is what the pools give at the block the quote was read at; the swap
 * itself guarantees only `minimumToAmount` at the slippage the client will ask for, so a client shows both.
 */
export const swapQuote = S.object({
  id: S.string(200, 1),
  type: S.picklist(swapTypes),
  /** Where the swap is made, and what a visitor reads of it (`Uniswap v3`). */
  venue: S.object({ id: venueId, name: S.string(100, 1) }),
  /** The contract a visitor approves before swapping an ERC-20 through this venue (its router). */
  spender: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
  fromAccount: evmAccount,
  fromAmount: units,
  fromDecimals: S.number(0, 255),
  toAccount: evmAccount,
  toAmount: units,
  toDecimals: S.number(0, 255),
  /** How far the pools' price moves against the visitor, in percent (`0.31` is 0.31 %). */
  priceImpact: S.number(0, 100),
  /** The tokens the swap passes through, `from` first and `to` last. */
  route: S.array(evmAccount, 8),
  /** Each hop's pool fee, in hundredths of a basis point (`500` is 0.05 %). */
  fees: S.array(S.number(0, 1_000_000), 7),
  /** The least the swap gives at {@link defaultSlippagePercent}: `toAmount` itself for an exact output. */
  minimumToAmount: units,
  /** The most the swap takes at {@link defaultSlippagePercent}: `fromAmount` itself for an exact input. */
  maximumFromAmount: units,
  /** The gas the swap is expected to use, and its fee in wei at the quote's gas price. */
  gas: units,
  fee: units,
  /** The block the quote was read at: a client treats a quote older than a few blocks as stale. */
  blockNumber: units,
  /** Unix milliseconds after which the client should ask again. */
  expiresAt: S.number(0),
})
export type SwapQuote = S.Infer<typeof swapQuote>

export const swapQuotesAnswer = S.object({ quotes: S.array(swapQuote, 10) })
export type SwapQuotesAnswer = S.Infer<typeof swapQuotesAnswer>

/** `GET /v1/convert/allowance`: what `userAddress` lets the swap contract spend of `tokenAddress`. */
export const swapAllowanceQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  tokenAddress: evmAccount,
  userAddress: evmAccount,
  /** Whose router: the quote's venue. @default the chain's first venue */
  venue: S.optional(venueId),
})
export type SwapAllowanceQuery = S.Infer<typeof swapAllowanceQuery>

/** In the token's smallest unit; the native currency needs no allowance and answers 2^256 − 1. */
export const swapAllowanceAnswer = S.object({ allowance: units })
export type SwapAllowanceAnswer = S.Infer<typeof swapAllowanceAnswer>

/** `GET /v1/convert/gas-price`. */
export const gasPriceQuery = S.object({ projectId, st: sdkField, sv: sdkField, chainId })
export type GasPriceQuery = S.Infer<typeof gasPriceQuery>

/** Wei per gas at three speeds. */
export const gasPriceAnswer = S.object({ standard: units, fast: units, instant: units })
export type GasPriceAnswer = S.Infer<typeof gasPriceAnswer>

/**
 * `GET /v1/convert/build-approve`: the approval that lets the swap contract spend `from` for a swap to `to`.
 * `amount` approves exactly that much; without it the approval is unlimited (2^256 − 1), which a client
 * should ask for only as the visitor's explicit choice.
 */
export const buildApproveQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  userAddress: evmAccount,
  from: evmAccount,
  to: evmAccount,
  amount: S.optional(units),
  /** Whose router to approve: the quote's venue. @default the best venue for `amount`, else the chain's first */
  venue: S.optional(venueId),
})
export type BuildApproveQuery = S.Infer<typeof buildApproveQuery>

/** An unsigned EVM transaction from `from` (the visitor) to `to`, with `value` in wei. */
export const swapTransaction = S.object({
  from: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
  to: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
  data: hex,
  value: units,
  eip155: S.object({ gas: S.optional(units), gasPrice: units }),
})
export type SwapTransaction = S.Infer<typeof swapTransaction>

export const buildApproveAnswer = S.object({ tx: swapTransaction })
export type BuildApproveAnswer = S.Infer<typeof buildApproveAnswer>

/**
 * `POST /v1/convert/build-transaction`'s body. `eip155.slippage` is in percent (default
 * {@link defaultSlippagePercent}); `disableEstimate` skips the gas estimate, for a swap whose approval is not
 * mined yet (the estimate would fail on the allowance).
 */
export const buildSwapBody = S.object({
  projectId: S.optional(projectId),
  amount: units,
  /** @default 'exactInput' */
  type: S.optional(S.picklist(swapTypes)),
  /** The quote's venue; without it, the best one now. */
  venue: S.optional(venueId),
  from: evmAccount,
  to: evmAccount,
  userAddress: evmAccount,
  disableEstimate: S.optional(S.boolean),
  eip155: S.optional(S.object({ slippage: S.optional(S.string(8, 1, /^\d{1,2}(\.\d{1,4})?$/)) })),
})
export type BuildSwapBody = S.Infer<typeof buildSwapBody>

/**
 * The swap to sign, where and along which pools it goes, what it guarantees at the slippage asked for (the
 * least it gives, the most it takes), and until when (unix seconds) it may be mined.
 */
export const buildSwapAnswer = S.object({
  tx: swapTransaction,
  type: S.picklist(swapTypes),
  venue: S.object({ id: venueId, name: S.string(100, 1) }),
  route: S.array(evmAccount, 8),
  fees: S.array(S.number(0, 1_000_000), 7),
  fromAmount: units,
  maximumFromAmount: units,
  toAmount: units,
  minimumToAmount: units,
  deadline: S.number(0),
})
export type BuildSwapAnswer = S.Infer<typeof buildSwapAnswer>
