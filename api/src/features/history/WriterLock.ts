/**
 * One writer per chain across replicas: a PostgreSQL session advisory lock per chain
 * (`pg_try_advisory_lock`), held as long as the session lives. A replica without it serves reads and tries
 * again now and then; when the writer dies, its session ends, PostgreSQL frees the lock and the next try
 * takes it over.
 *
 * A session lock needs one connection that stays open, which `Database` (a pool) does not lend out, so on
 * PostgreSQL the lock has a connection of its own. PGlite is a single session in a single process: the same
 * statement runs on it and always wins. Correctness does not rest on the lock alone: every write moves the
 * cursor by compare and set (`Store.ts`), so a writer that lost its lock without knowing writes nothing.
 */
import type { Database, Row } from '../../Database.ts'

export type WriterLock = {
  /** Takes the chain's lock if no one holds it; true when this process holds it (now or already). */
  tryAcquire(chainId: string): Promise<boolean>
  /** Whether this process believes it holds the chain's lock (false once its session was lost). */
  holds(chainId: string): boolean
  /** Gives every lock up. */
  close(): Promise<void>
}

export type LockOptions = {
  /**
   * The PostgreSQL URL to open the lock's session on. Unused on PGlite.
   * @default process.env.DATABASE_URL (as `Database.open`)
   */
  url?: string | undefined
  /** The first of the two 32-bit advisory keys, one per kind of writer. @default the history indexer's */
  namespace?: number | undefined
}

type Session = {
  query<T extends Row>(sql: string, params: readonly unknown[]): Promise<T[]>
  end(): Promise<void>
}

// The first of the two 32-bit advisory keys: 'HIST', so the service's other locks cannot collide.
const historyNamespace = 0x48495354

/**
 * @example
 * const lock = WriterLock.open(db)
 * if (await lock.tryAcquire('eip155:1')) { … }
 */
export function open(db: Database, options: LockOptions = {}): WriterLock {
  // Undefined falls back to the environment, as `Database.open` does: `Indexer.start` always passes the key.
  const url = options.url ?? process.env.DATABASE_URL
  const namespace = options.namespace ?? historyNamespace
  if (db.engine === 'postgres' && !url)
    throw new Error(
      'A chain follower needs the PostgreSQL URL for its lock session (lockUrl or DATABASE_URL).',
    )
  const held = new Set<string>()
  let session: Promise<Session> | undefined

  const connect = async (): Promise<Session> => {
    if (db.engine === 'pglite') return { query: (sql, params) => db.query(sql, params), end: async () => {} }
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url, keepAlive: true })
    // A session that ends takes its locks with it; forget them, and open a new session on the next try.
    const lost = () => {
      held.clear()
      session = undefined
    }
    client.on('error', lost)
    client.on('end', lost)
    await client.connect()
    return {
      query: async <T extends Row>(sql: string, params: readonly unknown[]) =>
        (await client.query<T>(sql, [...params])).rows,
      end: () => client.end(),
    }
  }

  return {
    async tryAcquire(chainId) {
      if (held.has(chainId)) return true
      session ??= connect().catch((error: unknown) => {
        session = undefined
        throw error
      })
      const [row] = await (await session).query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1, $2) as locked',
        [namespace, keyOf(chainId)],
      )
      if (row?.locked) held.add(chainId)
      return row?.locked === true
    },
    holds: (chainId) => held.has(chainId),
    async close() {
      const current = session
      session = undefined
      if (!current) return
      const open = await current.catch(() => undefined)
      try {
        if (db.engine === 'pglite')
          for (const chainId of held)
            await open?.query('select pg_advisory_unlock($1, $2)', [namespace, keyOf(chainId)])
        await open?.end()
      } catch {
        // Already closed: its locks went with it.
      }
      held.clear()
    },
  }
}

/** The chain's 32-bit advisory key: FNV-1a of its CAIP-2 id. */
function keyOf(chainId: string): number {
  let hash = 0x811c9dc5
  for (const char of chainId) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193)
  return hash | 0
}
