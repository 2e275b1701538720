/**
 * The wallet registry: what `/getWallets` lists and the images it points at. Seeded from a curated list of
 * real wallets' public metadata (`wallets.json`, beside this module) with the popular wallets' own icons
 * (`Icons.ts`) and generated monograms for the rest.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Database } from '../../Database.ts'
import * as Icons from './Icons.ts'
import * as Monogram from './Monogram.ts'

/** A wallet of the registry, as `/getWallets` lists it (the modal reads the fields of `Contract.listing`). */
export type Wallet = {
  id: string
  name: string
  image_id: string
  rdns: string | null
  chains: string[]
  homepage: string | null
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  badge_type: string
  order: number
}

/** An entry of the seed list. */
export type Listing = Omit<Wallet, 'image_id' | 'order'>

export type ImageKind = 'wallet' | 'asset' | 'currency' | 'token'

export type Query = {
  page: number
  entries: number
  include?: readonly string[] | undefined
  exclude?: readonly string[] | undefined
  chains?: readonly string[] | undefined
  search?: string | undefined
  badgeType?: string | undefined
}

/** The curated seed list that ships with the service. */
export function listings(): Listing[] {
  return JSON.parse(readFileSync(new URL('./wallets.json', import.meta.url), 'utf8')) as Listing[]
}

/**
 * A page of wallets and how many match in all. Order: the list's own rank (certified wallets first), then
 * name. `chains` keeps wallets that support at least one of them; `search` matches names, any case.
 * @example
 * await Registry.wallets(db, { page: 1, entries: 40, search: 'rain' }) // { count: 1, data: [{ name: 'Rainbow', … }] }
 */
export async function wallets(
  db: Pick<Database, 'query'>,
  query: Query,
): Promise<{ count: number; data: Wallet[] }> {
  const where: string[] = []
  const params: unknown[] = []
  const param = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  if (query.include?.length) where.push(`id = any(${param(query.include)}::text[])`)
  if (query.exclude?.length) where.push(`not (id = any(${param(query.exclude)}::text[]))`)
  if (query.chains?.length) where.push(`chains && ${param(query.chains)}::text[]`)
  if (query.badgeType) where.push(`badge_type = ${param(query.badgeType)}`)
  if (query.search) where.push(`name ilike ${param(`%${query.search.replace(/[\\%_]/g, '\\$&')}%`)}`)
  const filter = where.length > 0 ? `where ${where.join(' and ')}` : ''
  // One statement: the total comes along with the page as a window count.
  const rows = await db.query<Omit<Wallet, 'order'> & { rank: number; total: string | number }>(
    `select id, name, image_id, rdns, chains, homepage, mobile_link, desktop_link, webapp_link, badge_type, rank,
       count(*) over () as total
     from wallets ${filter} order by rank, name limit ${param(query.entries)} offset ${param((query.page - 1) * query.entries)}`,
    params,
  )
  // A page past the end has no rows to carry the total, so it is counted on its own.
  const total =
    rows[0]?.total ??
    (query.page > 1
      ? (
          await db.query<{ count: string | number }>(
            `select count(*) as count from wallets ${filter}`,
            params.slice(0, -2),
          )
        )[0]?.count
      : 0)
  return {
    count: Number(total ?? 0),
    data: rows.map(({ rank, total: _, ...wallet }) => ({ ...wallet, order: rank })),
  }
}

/** A stored image, or `undefined`. */
export async function image(
  db: Pick<Database, 'query'>,
  kind: ImageKind,
  id: string,
): Promise<{ contentType: string; body: Uint8Array; etag: string } | undefined> {
  const [row] = await db.query<{ content_type: string; body: Uint8Array; etag: string }>(
    'select content_type, body, etag from images where kind = $1 and id = $2',
    [kind, id],
  )
  return row && { contentType: row.content_type, body: row.body, etag: row.etag }
}

/** Stores an image under an id (replacing one that was there). */
export async function putImage(
  db: Pick<Database, 'query'>,
  kind: ImageKind,
  id: string,
  contentType: string,
  body: Uint8Array,
): Promise<void> {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
  await db.query(
    `insert into images (id, kind, content_type, body, etag) values ($1, $2, $3, $4, $5)
     on conflict (id) do update set kind = excluded.kind, content_type = excluded.content_type,
       body = excluded.body, etag = excluded.etag`,
    [id, kind, contentType, body, etag],
  )
}

/** Stores a generated monogram for `name` under `id`. */
export function putMonogram(db: Pick<Database, 'query'>, kind: ImageKind, id: string, name: string) {
  return putImage(db, kind, id, 'image/svg+xml', new TextEncoder().encode(Monogram.svg(name)))
}

/** A wallet's image id: stable for its registry id, shaped like the registry's UUIDs. */
export function imageIdOf(walletId: string): string {
  const hex = createHash('sha256').update(`image:${walletId}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/**
 * The wallets most visitors have, in that order: within each badge they come first, so Connect's featured
 * and recommended wallets are the ones a visitor is likely to hold. The rest follow in list order.
 */
export const popular = [
  'MetaMask',
  'Trust Wallet',
  'Coinbase Wallet',
  'OKX Wallet',
  'Rainbow',
  'Phantom',
  'Uniswap Wallet',
  'Rabby',
  'Zerion',
  'Ledger Live',
  'Binance Wallet',
  'Bitget Wallet',
  'Safe',
  'SafePal',
  'TokenPocket',
  'imToken',
  'Exodus',
  'Xverse Wallet',
  'Solflare',
  'Backpack',
]

/**
 * Loads listings (the shipped list by default) into the registry, replacing what was there, with each
 * wallet's shipped icon or else its generated monogram. Certified wallets rank first, the popular ones first within each badge.
 */
export async function seed(db: Database, entries: readonly Listing[] = listings()): Promise<number> {
  const popularity = (listing: Listing) => {
    const index = popular.indexOf(listing.name)
    return index < 0 ? popular.length : index
  }
  const ranked = [...entries].sort(
    (a, b) =>
      Number(b.badge_type === 'certified') - Number(a.badge_type === 'certified') ||
      popularity(a) - popularity(b),
  )
  const icons = Icons.shipped()
  await db.transaction(async (tx) => {
    await tx.query('delete from wallets')
    for (const [rank, wallet] of ranked.entries()) {
      const imageId = imageIdOf(wallet.id)
      await tx.query(
        `insert into wallets (id, name, rdns, chains, homepage, mobile_link, desktop_link, webapp_link, image_id, badge_type, rank)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          wallet.id,
          wallet.name,
          wallet.rdns,
          wallet.chains,
          wallet.homepage,
          wallet.mobile_link,
          wallet.desktop_link,
          wallet.webapp_link,
          imageId,
          wallet.badge_type,
          rank,
        ],
      )
      const icon = icons.get(wallet.name)
      if (icon) await putImage(tx, 'wallet', imageId, 'image/svg+xml', new TextEncoder().encode(icon))
      else await putMonogram(tx, 'wallet', imageId, wallet.name)
    }
  })
  return ranked.length
}
