/**
 * A time-limited cache in the database, so every process behind a load balancer shares it and the service
 * keeps no state of its own. Values are JSON.
 */
import type { Database } from './Database.ts'

export type Cache = {
  /**
   * The cached value for `key` if it is younger than its time to live, else `compute()`'s, which is then
   * stored. `fresh` skips the lookup (the balance route's `forceUpdate`).
   */
  remember<T>(key: string, ttlMs: number, compute: () => Promise<T>, fresh?: boolean): Promise<T>
}

/**
 * @example
 * const cache = Cache.create(db, Date.now)
 * await cache.remember('identity:0xab…', 300_000, () => lookUp('0xab…'))
 */
export function create(db: Database, now: () => number): Cache {
  let writes = 0
  return {
    async remember(key, ttlMs, compute, fresh = false) {
      if (!fresh) {
        const [hit] = await db.query<{ value: unknown }>(
          'select value from cache where key = $1 and expires_at > $2',
          [key, now()],
        )
        if (hit) return hit.value as never
      }
      const value = await compute()
      await db.query(
        `insert into cache (key, value, expires_at) values ($1, $2, $3)
         on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`,
        [key, JSON.stringify(value), now() + ttlMs],
      )
      // Expired rows are swept now and then rather than on every write.
      if (++writes % 500 === 0) await db.query('delete from cache where expires_at <= $1', [now()])
      return value
    },
  }
}

/** Drops every cached value (the devnet does on start: its chains begin afresh, so old reads are wrong). */
export async function clear(db: Pick<Database, 'query'>): Promise<void> {
  await db.query('delete from cache')
}
