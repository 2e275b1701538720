/**
 * The Solana addresses the index follows one by one (`history_watched`): every wallet the history route
 * was asked about, and the token accounts of those wallets. Each has its own cursor, the newest signature
 * indexed, which moves only from the value its writer read (compare and set), so the route's first read and
 * the indexer's step may race on one address without either moving it backwards.
 */
import type { Database } from '../../../Database.ts'

type Db = Pick<Database, 'query'>

export type Watched = {
  address: string
  /** The wallet whose history it feeds: itself, or the owner of a token account. */
  owner: string
  /** The newest signature indexed; null before the first read. */
  newest: string | null
}

/** A wallet asked about again refreshes its `asked_at` at most this often: one write an hour, not one a read. */
const refreshMs = 60 * 60 * 1000

/**
 * Records that the route was asked about `wallet`; true when it is new to the list (never read before).
 * @example
 * if (await Watchlist.ask(db, chainId, wallet, Date.now())) await readAtOnce(wallet)
 */
export async function ask(db: Db, chainId: string, wallet: string, now: number): Promise<boolean> {
  const added = await db.query(
    `insert into history_watched (chain_id, address, owner, newest, asked_at) values ($1, $2, $2, null, $3)
     on conflict do nothing returning address`,
    [chainId, wallet, now],
  )
  if (added.length > 0) return true
  await db.query(
    'update history_watched set asked_at = $3 where chain_id = $1 and address = $2 and asked_at < $4',
    [chainId, wallet, now, now - refreshMs],
  )
  return false
}

/** The addresses to follow: those of wallets asked about since `since` (epoch ms), and their token accounts. */
export async function followed(db: Db, chainId: string, since: number): Promise<Watched[]> {
  return db.query<Watched>(
    `select w.address, w.owner, w.newest from history_watched w
     join history_watched o on o.chain_id = w.chain_id and o.address = w.owner
     where w.chain_id = $1 and o.asked_at >= $2
     order by w.owner, w.address`,
    [chainId, since],
  )
}

/** Adds token accounts of followed wallets (unread yet); those already listed keep their cursors. */
export async function add(db: Db, chainId: string, rows: readonly Omit<Watched, 'newest'>[], now: number) {
  if (rows.length === 0) return
  await db.query(
    `insert into history_watched (chain_id, address, owner, newest, asked_at)
     select $1, address, owner, null, $4 from unnest($2::text[], $3::text[]) as w (address, owner)
     on conflict do nothing`,
    [chainId, rows.map((row) => row.address), rows.map((row) => row.owner), now],
  )
}

/** Moves each address's cursor from `from` to `to`; a cursor another writer moved meanwhile stays as it is. */
export async function advance(
  db: Db,
  chainId: string,
  moves: readonly { address: string; from: string | null; to: string }[],
) {
  if (moves.length === 0) return
  await db.query(
    `update history_watched w set newest = m.next
     from unnest($2::text[], $3::text[], $4::text[]) as m (address, previous, next)
     where w.chain_id = $1 and w.address = m.address and w.newest is not distinct from m.previous`,
    [chainId, moves.map((m) => m.address), moves.map((m) => m.from), moves.map((m) => m.to)],
  )
}
