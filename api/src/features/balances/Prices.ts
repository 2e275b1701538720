/**
 * Fungible prices. The service asks a {@link PriceSource}; which one is a deployment's choice, and none is
 * wired to a vendor. The built-in source reads the `prices` table, which the devnet seeds and an operator
 * can fill from any feed (`Prices.set`). To use a market-data provider, implement `PriceSource` (one method)
 * and pass it to `Service.create({ prices })`.
 */
import type { Currency } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'

export { type Currency, currencies } from '../../contract/index.ts'

/** The address under which a chain's native currency is priced (and the usual "native" sentinel). */
export const native = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** One asset: a CAIP-2 chain id and a lowercase token address ({@link native} for the native currency). */
export type Asset = { chainId: string; address: string }

export type Price = Asset & { name: string; symbol: string; iconUrl: string | null; price: number }

export type PriceSource = {
  /** Prices of the assets it knows, in `currency`; unknown assets are left out. */
  prices(assets: readonly Asset[], currency: Currency): Promise<Price[]>
}

/**
 * The built-in source: the `prices` table.
 * @example
 * const prices = await Prices.fromDatabase(db).prices([{ chainId: 'eip155:1', address: Prices.native }], 'usd')
 */
export function fromDatabase(db: Pick<Database, 'query'>): PriceSource {
  return {
    async prices(assets, currency) {
      if (assets.length === 0) return []
      const rows = await db.query<{
        chain_id: string
        address: string
        name: string
        symbol: string
        icon_url: string | null
        price: number
      }>(
        `select p.chain_id, p.address, p.name, p.symbol, p.icon_url, p.price from prices p
         join unnest($1::text[], $2::text[]) as q (chain_id, address)
           on p.chain_id = q.chain_id and p.address = q.address
         where p.currency = $3`,
        [assets.map((asset) => asset.chainId), assets.map((asset) => asset.address.toLowerCase()), currency],
      )
      return rows.map((row) => ({
        chainId: row.chain_id,
        address: row.address,
        name: row.name,
        symbol: row.symbol,
        iconUrl: row.icon_url,
        price: Number(row.price),
      }))
    },
  }
}

/**
 * Stores prices in the built-in table (the devnet seeds its tokens this way; an operator's cron can too).
 * @example
 * await Prices.set(db, [{ chainId: 'eip155:1', address: Prices.native, currency: 'usd', price: 3000, name: 'Ether', symbol: 'ETH', iconUrl: null }])
 */
export async function set(db: Database, prices: readonly (Price & { currency: Currency })[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const p of prices)
      await tx.query(
        `insert into prices (chain_id, address, currency, price, name, symbol, icon_url)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (chain_id, address, currency) do update set price = excluded.price,
           name = excluded.name, symbol = excluded.symbol, icon_url = excluded.icon_url`,
        [p.chainId, p.address.toLowerCase(), p.currency, p.price, p.name, p.symbol, p.iconUrl],
      )
  })
}

/** Every stored price, by symbol, chain and currency (what `airlock-api prices list` prints). */
export async function list(db: Pick<Database, 'query'>): Promise<(Price & { currency: string })[]> {
  const rows = await db.query<{
    chain_id: string
    address: string
    currency: string
    name: string
    symbol: string
    icon_url: string | null
    price: number
  }>(
    'select chain_id, address, currency, name, symbol, icon_url, price from prices order by symbol, chain_id, currency',
  )
  return rows.map((row) => ({
    chainId: row.chain_id,
    address: row.address,
    currency: row.currency,
    name: row.name,
    symbol: row.symbol,
    iconUrl: row.icon_url,
    price: Number(row.price),
  }))
}

/**
 * Forgets the prices of a symbol (any case), on one chain or all, in every currency; returns how many went.
 * @example
 * await Prices.remove(db, { symbol: 'USDC', chainId: 'eip155:1' })
 */
export async function remove(
  db: Pick<Database, 'query'>,
  { symbol, chainId }: { symbol: string; chainId?: string | undefined },
): Promise<number> {
  const rows = await db.query(
    'delete from prices where lower(symbol) = lower($1) and ($2::text is null or chain_id = $2) returning 1',
    [symbol, chainId ?? null],
  )
  return rows.length
}
