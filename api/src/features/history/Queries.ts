/**
 * The history read: a page of the transactions that concern an account, newest first, with the transfers
 * that touched it. Two queries per page whatever its depth: the page through the `history_accounts_page`
 * index (keyset, see `Cursor.ts`), then the transfers of its transactions.
 */
import type { Chain } from '../../Config.ts'
import type * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import * as Prices from '../balances/Prices.ts'
import type { Position } from './Cursor.ts'
import * as Items from './Items.ts'
import type { TransactionKind, Transfer } from './Source.ts'

/**
 * Items per page. The Activity tab shows about seven rows at 360 px, so 20 is three screens for one request;
 * a page with its transfers stays around 10 KB of JSON, and the page query reads 21 index entries.
 */
const pageSize = 20

/** At most this many transfers of one transaction are listed (an airdrop can move thousands). */
const transfersPerItem = 100

export type PageOptions = {
  /** The account as the index keys it (`Family.account`). */
  account: string
  chainId?: string | undefined
  after?: Position | undefined
  /** The configured chains, for their native currencies. */
  chains: readonly Chain[]
  prices?: Prices.PriceSource | undefined
  /** @default pageSize */
  limit?: number
}

export type Page = { items: Contract.HistoryItem[]; next: Position | undefined }

type TxRow = {
  chain_id: string
  tx_hash: string
  mined_at: unknown
  block_number: unknown
  tx_index: unknown
  status: 'confirmed' | 'failed'
  kind: TransactionKind
  sender: string
  recipient: string
}

type TransferRow = {
  chain_id: string
  tx_hash: string
  kind: Transfer['kind']
  asset: string
  token_id: string | null
  sender: string
  recipient: string
  amount: string
  name: string | null
  symbol: string | null
  decimals: unknown
  icon_url: string | null
  is_spam: boolean | null
}

/**
 * True when the transaction's transfers that concern the account are all spam NFTs: such an item is left out.
 * A scalar subquery, so it runs per candidate row through the transfers' primary key (written as EXISTS, the
 * planner hashes every transfer of the account instead, and pages slow down as the history grows).
 */
const onlySpam = `(select bool_and(f.kind = 'nft' and coalesce(s.is_spam, false)) from history_transfers f
    left join history_assets s on s.chain_id = f.chain_id and s.address = f.asset
    where f.chain_id = a.chain_id and f.tx_hash = a.tx_hash and $1 in (f.sender, f.recipient))`

/**
 * @example
 * const { items, next } = await Queries.page(db, { account: '0xf39f…', chains: config.chains })
 */
export async function page(db: Pick<Database, 'query'>, options: PageOptions): Promise<Page> {
  const limit = options.limit ?? pageSize
  const params: unknown[] = [options.account]
  const where = ['a.address = $1', `${onlySpam} is not true`]
  if (options.chainId) where.push(`a.chain_id = $${params.push(options.chainId)}`)
  if (options.after) {
    const { minedAt, chainId, block, index } = options.after
    const at = params.push(minedAt, chainId, block, index)
    where.push(
      `(a.mined_at, a.chain_id, a.block_number, a.tx_index) < ($${at - 3}, $${at - 2}, $${at - 1}, $${at})`,
    )
  }
  const rows = await db.query<TxRow>(
    `select a.chain_id, a.tx_hash, a.mined_at, a.block_number, a.tx_index, t.status, t.kind, t.sender, t.recipient
     from history_accounts a
     join history_transactions t on t.chain_id = a.chain_id and t.hash = a.tx_hash
     where ${where.join(' and ')}
     order by a.mined_at desc, a.chain_id desc, a.block_number desc, a.tx_index desc
     limit $${params.push(limit + 1)}`,
    params,
  )
  const shown = rows.slice(0, limit)
  const last = shown.at(-1)
  const transfers = await transfersOf(db, options.account, shown)
  const priced = await pricesOf(options.prices, transfers)
  return {
    items: shown.map((row) => item(row, transfers.get(key(row)) ?? [], options, priced)),
    next:
      rows.length > limit && last
        ? {
            minedAt: Number(last.mined_at),
            chainId: last.chain_id,
            block: Number(last.block_number),
            index: Number(last.tx_index),
          }
        : undefined,
  }
}

const key = (row: { chain_id: string; tx_hash: string }) => `${row.chain_id} ${row.tx_hash}`

async function transfersOf(db: Pick<Database, 'query'>, account: string, txs: TxRow[]) {
  const byTx = new Map<string, TransferRow[]>()
  if (txs.length === 0) return byTx
  const rows = await db.query<TransferRow>(
    `select f.chain_id, f.tx_hash, f.kind, f.asset, f.token_id, f.sender, f.recipient, f.amount::text as amount,
       s.name, s.symbol, s.decimals, s.icon_url, s.is_spam
     from history_transfers f
     join unnest($2::text[], $3::text[]) as q (chain_id, tx_hash) on f.chain_id = q.chain_id and f.tx_hash = q.tx_hash
     left join history_assets s on s.chain_id = f.chain_id and s.address = f.asset
     where $1 in (f.sender, f.recipient)
     order by f.chain_id, f.tx_hash, f.position`,
    [account, txs.map((tx) => tx.chain_id), txs.map((tx) => tx.tx_hash)],
  )
  for (const row of rows) {
    const list = byTx.get(key(row)) ?? []
    if (list.length < transfersPerItem) list.push(row)
    byTx.set(key(row), list)
  }
  return byTx
}

type Priced = Map<string, Prices.Price>

/** Current prices (USD) of the page's currencies and tokens, when a price source is given. */
async function pricesOf(source: Prices.PriceSource | undefined, transfers: Map<string, TransferRow[]>) {
  const priced: Priced = new Map()
  if (!source) return priced
  const assets = new Map<string, Prices.Asset>()
  for (const row of [...transfers.values()].flat())
    if (row.kind !== 'nft') {
      const asset = { chainId: row.chain_id, address: row.asset || Prices.native }
      assets.set(`${asset.chainId} ${asset.address}`, asset)
    }
  for (const price of await source.prices([...assets.values()], 'usd'))
    priced.set(`${price.chainId} ${price.address}`, price)
  return priced
}

function item(row: TxRow, rows: TransferRow[], options: PageOptions, priced: Priced): Contract.HistoryItem {
  const { account } = options
  const chain = options.chains.find((entry) => entry.id === row.chain_id)
  const transfers = rows.map((transfer) => ({
    ...transfer,
    direction: Items.direction(account, transfer.sender, transfer.recipient),
  }))
  return {
    id: row.tx_hash,
    metadata: {
      minedAt: new Date(Number(row.mined_at)).toISOString(),
      chain: row.chain_id,
      // A fee is what the transaction cost, not what it did: a transfer that pays only a fee is no burn.
      operationType: Items.operationType(
        row.kind,
        transfers
          .filter((transfer) => transfer.kind !== 'fee')
          .map((transfer) => ({
            direction: transfer.direction,
            from: transfer.sender,
            to: transfer.recipient,
          })),
      ),
      status: row.status,
      sentFrom: row.sender,
      sentTo: row.recipient,
    },
    transfers: transfers.map((transfer): Contract.HistoryTransfer => {
      const amount = BigInt(transfer.amount)
      if (transfer.kind === 'nft')
        return {
          nft_info: {
            name: Items.label(`${transfer.name || 'NFT'} #${transfer.token_id ?? ''}`, 300),
            content: { preview: { url: '' } },
            flags: { is_spam: transfer.is_spam === true },
          },
          direction: transfer.direction,
          quantity: { numeric: amount.toString() },
        }
      const native = transfer.kind === 'native' || transfer.kind === 'fee'
      const decimals = native ? (chain?.nativeCurrency.decimals ?? 18) : nullableNumber(transfer.decimals)
      const numeric = Items.quantity(amount, decimals)
      const price = priced.get(`${transfer.chain_id} ${transfer.asset || Prices.native}`)
      return {
        fungible_info: {
          name: Items.label(native ? chain?.nativeCurrency.name : transfer.name, 200),
          symbol: Items.label(native ? chain?.nativeCurrency.symbol : transfer.symbol, 40),
          icon: { url: Items.label(transfer.icon_url ?? price?.iconUrl, 2048) },
        },
        direction: transfer.direction,
        quantity: { numeric },
        ...(price ? { price: price.price, value: Number(numeric) * price.price } : {}),
      }
    }),
  }
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value)
}
