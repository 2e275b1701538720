/**
 * Transaction history: `GET /v1/account/{account}/history`. One item per transaction that concerns the
 * account, newest first, with the transfers that moved its assets; `next` is the cursor of the following
 * page, `null` on the last.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { chainId } from './balances.ts'
import { projectId, sdkField } from './common.ts'

/** A page's cursor as the API hands it out: opaque, URL-safe. */
const cursor = S.string(200, 1, /^[A-Za-z0-9_-]+$/)

/**
 * `cursor` continues a listing (from the previous answer's `next`), `chainId` keeps one chain's items, and
 * `onramp` asks for the account's purchases through that on-ramp provider instead (its id, as
 * `GET /v1/onramp/options` lists it), read fresh from the orders, never from a cache.
 */
export const historyQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  cursor: S.optional(cursor),
  onramp: S.optional(S.string(40, 1)),
  chainId: S.optional(chainId),
})
export type HistoryQuery = S.Infer<typeof historyQuery>

/** What the API says a transaction did for the account; a client should show an unknown one as is. */
export const operationTypes = [
  'send',
  'receive',
  'mint',
  'burn',
  'trade',
  'execute',
  'approve',
  'deploy',
  /** An on-ramp purchase (`?onramp=`). */
  'buy',
] as const
export type OperationType = (typeof operationTypes)[number]

export const transactionStatuses = ['confirmed', 'failed', 'pending'] as const
export type TransactionStatus = (typeof transactionStatuses)[number]

const url = S.string(2048)

/** One asset movement: `fungible_info` for a currency or token, `nft_info` for an NFT. */
export const historyTransfer = S.object({
  fungible_info: S.optional(S.object({ name: S.string(200), symbol: S.string(40), icon: S.object({ url }) })),
  nft_info: S.optional(
    S.object({
      name: S.string(300),
      content: S.object({ preview: S.object({ url }) }),
      flags: S.object({ is_spam: S.boolean }),
    }),
  ),
  /** Seen from the account: `self` when it sent to itself. */
  direction: S.picklist(['in', 'out', 'self']),
  /** The amount in whole units (decimals applied), as a decimal string. */
  quantity: S.object({ numeric: S.string(100, 1, /^\d+(\.\d+)?$/) }),
  /** `quantity` at `price`, when the asset has a price (in USD). */
  value: S.optional(S.number()),
  price: S.optional(S.number()),
})
export type HistoryTransfer = S.Infer<typeof historyTransfer>

export const historyItem = S.object({
  id: S.string(200, 1),
  metadata: S.object({
    /** ISO 8601. */
    minedAt: S.string(64, 1),
    /** CAIP-2. */
    chain: S.string(80, 1),
    /** One of {@link operationTypes} today; kept open so an older client reads a newer API. */
    operationType: S.string(40, 1),
    status: S.picklist(transactionStatuses),
    sentFrom: S.string(200),
    sentTo: S.string(200),
  }),
  transfers: S.array(historyTransfer, 500),
})
export type HistoryItem = S.Infer<typeof historyItem>

export const historyAnswer = S.object({ data: S.array(historyItem, 100), next: S.nullable(cursor) })
export type HistoryAnswer = S.Infer<typeof historyAnswer>
