/**
 * Supported chains and balances: `GET /v1/supported-chains` and `GET /v1/account/{address}/balance`.
 */
import * as Caip from '@airlock/bridge-protocol/Caip'
import * as S from '@airlock/bridge-protocol/Shape'
import { flag, projectId, sdkField } from './common.ts'

/** The currencies balances and prices can be asked in. */
export const currencies = ['usd', 'eur', 'gbp', 'jpy', 'cad', 'aud', 'chf', 'cny', 'inr', 'brl'] as const
export type Currency = (typeof currencies)[number]

/** A CAIP-2 chain id. */
export const chainId = S.check(S.string(80), Caip.isChainId, Caip.invalidChainId)

/**
 * A configured chain as browsers may see it: name and currency, so the modal can show a network it knows
 * no other way. Never its RPC URL: a deployment's URL may carry credentials (a Bitcoin node's) or a paid
 * key, and the modal reads balances through the API anyway.
 */
export const supportedChain = S.object({
  id: chainId,
  name: S.string(100, 1),
  nativeCurrency: S.object({ name: S.string(100, 1), symbol: S.string(20, 1), decimals: S.number(0, 255) }),
  testnet: S.optional(S.boolean),
})
export type SupportedChain = S.Infer<typeof supportedChain>

/**
 * `GET /v1/supported-chains`: the configured chains (`http`), those with a WebSocket RPC (`ws`), and each
 * chain's name and currency (`chains`; absent from an older API's answer).
 */
export const supportedChainsAnswer = S.object({
  http: S.array(S.string(80), 1000),
  ws: S.array(S.string(80), 1000),
  chains: S.optional(S.array(supportedChain, 1000)),
})
export type SupportedChainsAnswer = S.Infer<typeof supportedChainsAnswer>

/** `GET /v1/account/{address}/balance`'s query; `forceUpdate=true` skips the 30 s cache. */
export const balanceQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  currency: S.optional(S.picklist(currencies)),
  chainId,
  forceUpdate: flag,
})
export type BalanceQuery = S.Infer<typeof balanceQuery>

/** One balance; `address` (CAIP-10) is absent for the chain's native currency. */
export const tokenBalance = S.object({
  name: S.string(200),
  symbol: S.string(40),
  chainId: S.string(80),
  address: S.optional(S.string(200)),
  value: S.number(),
  price: S.number(),
  quantity: S.object({ decimals: S.string(4, 1, /^\d+$/), numeric: S.string(100, 1, /^\d+(\.\d+)?$/) }),
  iconUrl: S.string(2048),
})
export type TokenBalance = S.Infer<typeof tokenBalance>

export const balancesAnswer = S.object({ balances: S.array(tokenBalance, 500) })
export type BalancesAnswer = S.Infer<typeof balancesAnswer>
