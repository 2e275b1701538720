/**
 * What the API keeps of smart sessions, beside what the chain says: the page each was granted to and when the
 * account recorded its revocation. Sessions themselves, and whether they are live, are the chain's (`OnChain.ts`).
 */
import type { Database } from '../../Database.ts'

type Query = Pick<Database, 'query'>

/** A session by its chain (CAIP-2), account and key. */
export type Id = { chainId: string; account: string; key: string }

export type Entry = { key: string; origin: string | undefined; revokedAt: number | undefined }

type Row = { key: string; origin: string | null; revoked_at: string | null }

const params = (id: Id) => [id.chainId, id.account.toLowerCase(), id.key.toLowerCase()]

/** The account's sessions the API knows of on the chain, by lower-case key. */
export async function ofAccount(db: Query, chainId: string, account: string): Promise<Map<string, Entry>> {
  const rows = await db.query<Row>(
    'select key, origin, revoked_at from smart_sessions where chain_id = $1 and account = $2',
    [chainId, account.toLowerCase()],
  )
  return new Map(
    rows.map((row) => [
      row.key,
      {
        key: row.key,
        origin: row.origin ?? undefined,
        revokedAt: row.revoked_at === null ? undefined : Number(row.revoked_at),
      },
    ]),
  )
}

/** Records the account's revocation of the session (again is a no-op: the first time stands). */
export async function revoke(db: Query, id: Id, now: number): Promise<void> {
  await db.query(
    `insert into smart_sessions (chain_id, account, key, revoked_at) values ($1, $2, $3, $4)
     on conflict (chain_id, account, key) do update set revoked_at = coalesce(smart_sessions.revoked_at, $4)`,
    [...params(id), now],
  )
}

/** Records the page a session was granted to. */
export async function granted(db: Query, id: Id, origin: string): Promise<void> {
  await db.query(
    `insert into smart_sessions (chain_id, account, key, origin) values ($1, $2, $3, $4)
     on conflict (chain_id, account, key) do update set origin = $4`,
    [...params(id), origin],
  )
}
