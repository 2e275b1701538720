/**
 * A time-limited cache in the database, so every process behind a load balancer shares it and the service
 * keeps no state of its own. Values are JSON. Within a process, a value being computed is computed once for
 * everyone who asks meanwhile (a flood of one balance is one chain read at a time, not one per request).
 */
import type { Database } from './Database.ts'

export type Cache = {
  /**
   * The cached value for `key` if it is younger than its time to live, else `compute()`'s, which is then
   * stored. `fresh` skips the lookup (the balance route's `forceUpdate`): it is answered by a computation
   * that starts after it arrived, never by one already under way.
   */
  remember<T>(key: string, ttlMs: number, compute: () => Promise<T>, fresh?: boolean): Promise<T>
}

/** A computation under way, and the one that follows it for the fresh requests that arrived meanwhile. */
type Flight = { value: Promise<unknown>; next?: Promise<unknown> }

/**
 * @example
 * const cache = Cache.create(db, Date.now)
 * await cache.remember('identity:0xab…', 300_000, () => lookUp('0xab…'))
 */
export function create(db: Database, now: () => number): Cache {
  let writes = 0
  const flights = new Map<string, Flight>()
  const store = async <T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> => {
    const value = await compute()
    await db.query(
      `insert into cache (key, value, expires_at) values ($1, $2, $3)
       on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`,
      [key, JSON.stringify(value), now() + ttlMs],
    )
    // Expired rows are swept now and then rather than on every write.
    if (++writes % 500 === 0) await db.query('delete from cache where expires_at <= $1', [now()])
    return value
  }
  const fly = <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const flight: Flight = {
      value: run().finally(() => {
        if (flights.get(key) === flight) flights.delete(key)
      }),
    }
    flights.set(key, flight)
    return flight.value as Promise<T>
  }
  return {
    async remember(key, ttlMs, compute, fresh = false) {
      const run = () => store(key, ttlMs, compute)
      const under = flights.get(key)
      // A request that takes a cached value takes one still being computed too: it is younger still.
      if (under && !fresh) return under.value as never
      if (!fresh) {
        const [hit] = await db.query<{ value: unknown }>(
          'select value from cache where key = $1 and expires_at > $2',
          [key, now()],
        )
        if (hit) return hit.value as never
        return (flights.get(key)?.value ?? fly(key, run)) as never
      }
      if (!under) return fly(key, run)
      // Whatever the one under way ends with, the next starts after it: one read for all who asked meanwhile.
      under.next ??= under.value.then(nothing, nothing).then(() => fly(key, run))
      return under.next as never
    },
  }
}

const nothing = () => {}

/** Drops every cached value (the devnet does on start: its chains begin afresh, so old reads are wrong). */
export async function clear(db: Pick<Database, 'query'>): Promise<void> {
  await db.query('delete from cache')
}
