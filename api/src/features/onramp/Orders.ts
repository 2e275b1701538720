/**
 * On-ramp orders in the database: opened pending when the API signs a checkout URL, then completed or
 * failed once, by the provider's webhook. An order belongs to the project that opened it; its id is random,
 * so only the client that opened it can name it.
 */
import { randomBytes } from 'node:crypto'
import type * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import type { OrderEvent } from './Provider.ts'

type Query = Pick<Database, 'query'>

export type Order = {
  id: string
  projectId: string
  provider: string
  address: string
  network: string
  asset: string
  fiatCurrency: string
  fiatAmount: string | null
  cryptoAmount: string | null
  status: Contract.OnrampOrderStatus
  txHash: string | null
  failureReason: string | null
  createdAt: number
  updatedAt: number
}

type Row = {
  id: string
  project_id: string
  provider: string
  address: string
  network: string
  asset: string
  fiat_currency: string
  fiat_amount: string | null
  crypto_amount: string | null
  status: Contract.OnrampOrderStatus
  tx_hash: string | null
  failure_reason: string | null
  created_at: string
  updated_at: string
}

const columns =
  'id, project_id, provider, address, network, asset, fiat_currency, fiat_amount, crypto_amount, status, tx_hash, failure_reason, created_at, updated_at'

const orderOf = (row: Row): Order => ({
  id: row.id,
  projectId: row.project_id,
  provider: row.provider,
  address: row.address,
  network: row.network,
  asset: row.asset,
  fiatCurrency: row.fiat_currency,
  fiatAmount: row.fiat_amount,
  cryptoAmount: row.crypto_amount,
  status: row.status,
  txHash: row.tx_hash,
  failureReason: row.failure_reason,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
})

/** How history finds an address: EVM addresses in any case, base58 exactly. */
export const holderOf = (address: string): string =>
  address.startsWith('0x') ? address.toLowerCase() : address

export type NewOrder = {
  projectId: string
  provider: string
  partnerUserId: string
  address: string
  network: string
  asset: string
  fiatCurrency: string
  fiatAmount?: string | undefined
  cryptoAmount?: string | undefined
  quoteId?: string | undefined
}

/** Opens a pending order; its id is 24 random bytes, base64url. */
export async function open(db: Query, order: NewOrder, now: number): Promise<Order> {
  const id = randomBytes(24).toString('base64url')
  const [row] = await db.query<Row>(
    `insert into onramp_orders (id, project_id, provider, partner_user_id, address, holder, network, asset,
       fiat_currency, fiat_amount, crypto_amount, quote_id, status, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', $13, $13)
     returning ${columns}`,
    [
      id,
      order.projectId,
      order.provider,
      order.partnerUserId,
      order.address,
      holderOf(order.address),
      order.network,
      order.asset,
      order.fiatCurrency,
      order.fiatAmount ?? null,
      order.cryptoAmount ?? null,
      order.quoteId ?? null,
      now,
    ],
  )
  if (!row) throw new Error('The order was not stored')
  return orderOf(row)
}

export async function find(db: Query, id: string): Promise<Order | undefined> {
  const [row] = await db.query<Row>(`select ${columns} from onramp_orders where id = $1`, [id])
  return row && orderOf(row)
}

/**
 * Applies a provider's event to its pending order: `true` when it changed the order, `false` when the order
 * had already left pending (a retried or replayed webhook), so an order completes once.
 */
export async function apply(db: Query, provider: string, event: OrderEvent, now: number): Promise<boolean> {
  if (event.status === 'pending') return false
  const rows = await db.query(
    `update onramp_orders set status = $3, tx_hash = $4, failure_reason = $5,
       crypto_amount = coalesce($6, crypto_amount), fiat_amount = coalesce($7, fiat_amount),
       provider_transaction_id = $8, updated_at = $9
     where id = $1 and provider = $2 and status = 'pending'
     returning id`,
    [
      event.orderId,
      provider,
      event.status,
      event.status === 'completed' ? (event.txHash ?? null) : null,
      event.status === 'failed' ? (event.failureReason ?? 'The payment failed') : null,
      event.status === 'completed' ? (event.purchaseAmount?.amount ?? null) : null,
      event.paymentTotal?.amount ?? null,
      event.providerTransactionId,
      now,
    ],
  )
  return rows.length > 0
}

/** An address's orders in a project, newest first; one provider's or every one's, one network's or all. */
export async function ofHolder(
  db: Query,
  filter: { projectId: string; address: string; provider?: string | undefined; network?: string | undefined },
  limit: number,
): Promise<Order[]> {
  const rows = await db.query<Row>(
    `select ${columns} from onramp_orders
     where project_id = $1 and holder = $2 and ($3::text is null or provider = $3)
       and ($4::text is null or network = $4)
     order by created_at desc, id limit $5`,
    [filter.projectId, holderOf(filter.address), filter.provider ?? null, filter.network ?? null, limit],
  )
  return rows.map(orderOf)
}

/** The order as its client reads it. */
export function answerOf(order: Order): Contract.OnrampOrder {
  return {
    orderId: order.id,
    status: order.status,
    provider: order.provider,
    address: order.address,
    network: order.network,
    asset: order.asset,
    ...(order.cryptoAmount ? { purchaseAmount: { amount: order.cryptoAmount, currency: order.asset } } : {}),
    ...(order.fiatAmount ? { paymentTotal: { amount: order.fiatAmount, currency: order.fiatCurrency } } : {}),
    ...(order.txHash ? { txHash: order.txHash } : {}),
    ...(order.failureReason ? { failureReason: order.failureReason } : {}),
    updatedAt: new Date(order.updatedAt).toISOString(),
  }
}
