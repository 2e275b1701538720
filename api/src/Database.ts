/**
 * One query layer over two engines: PGlite (embedded PostgreSQL, data in a local folder: the default, no
 * setup) and PostgreSQL through `pg` when a connection URL is given. The SQL is the same on both, and so are
 * the migrations, so a team can start on one machine and scale out on a shared PostgreSQL later.
 *
 * Why plain SQL and not Kysely: Kysely 0.29 requires Node 22 (this service supports Node 20), and the
 * service runs a few dozen short statements that read well as SQL.
 */
import type { PGlite } from '@electric-sql/pglite'
import { migrations } from './internal/migrations.ts'

/** A row as the driver returns it: column name → value. */
export type Row = Record<string, unknown>

export type Database = {
  /** `pglite` or `postgres`: tests name the engine they ran on. */
  engine: 'pglite' | 'postgres'
  /** Runs one parameterised statement (`$1`, `$2`, …) and returns its rows. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (db: Pick<Database, 'query'>) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export type OpenOptions = {
  /** A PostgreSQL connection URL; when set, PGlite is not used. @default process.env.DATABASE_URL */
  url?: string | undefined
  /**
   * PGlite's data folder; `memory://` keeps everything in memory. The server and its command line pass the
   * one `ConfigFile` finds (`AIRLOCK_DATA`, or `dataDir` beside the configuration file), never the default.
   * @default './.airlock-data', in the working directory
   */
  dataDir?: string | undefined
  /**
   * A PGlite data folder as {@link template} dumps it, copied into memory (PGlite, whatever `url` says): a
   * cluster initialised and migrated once, where initialising one costs seconds of CPU (tests open many).
   */
  template?: Blob | undefined
}

/**
 * Opens the database and brings its schema up to date.
 * @example
 * const db = await Database.open({ dataDir: 'memory://' })
 * await db.query('select 1')
 */
export async function open(options: OpenOptions = {}): Promise<Database> {
  const url = 'url' in options ? options.url : process.env.DATABASE_URL
  const db =
    url && !options.template
      ? await postgres(url)
      : await pglite(
          options.template ? { loadDataDir: options.template } : (options.dataDir ?? './.airlock-data'),
        )
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}

/**
 * An empty database at the current schema, as PGlite's dump of its data folder: what {@link open} copies
 * with `template`.
 * @example
 * const db = await Database.open({ template: await Database.template() })
 */
export async function template(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite')
  const client = await PGlite.create('memory://')
  try {
    await migrate(wrap(client))
    return await client.dumpDataDir('none')
  } finally {
    await client.close()
  }
}

async function pglite(from: string | { loadDataDir: Blob }): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  return wrap(typeof from === 'string' ? await PGlite.create(from) : await PGlite.create(from))
}

function wrap(client: PGlite): Database {
  // PGlite runs one statement at a time; a transaction holds it, so no other query interleaves.
  const query = async <T extends Row>(sql: string, params: readonly unknown[] = []) =>
    (await client.query<T>(sql, [...params])).rows
  return {
    engine: 'pglite',
    query,
    transaction: (work) =>
      client.transaction((tx) =>
        work({
          query: async <T extends Row>(sql: string, params: readonly unknown[] = []) =>
            (await tx.query<T>(sql, [...params])).rows,
        }),
      ),
    close: () => client.close(),
  }
}

async function postgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg')
  // bigint and numeric come back as strings from pg and PGlite alike, so callers see one behaviour.
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // An idle connection the server ends (a restart, a failover, an administrator) is an error event on the
  // pool; unheard, Node would end the whole process. The pool drops that connection and opens another for
  // the next query, so a warning is all it takes.
  pool.on('error', (error) => console.warn('[airlock-api] A database connection was closed:', error.message))
  await pool.query('select 1')
  return {
    engine: 'postgres',
    query: async <T extends Row>(sql: string, params: readonly unknown[] = []) =>
      (await pool.query<T>(sql, [...params])).rows,
    transaction: async (work) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const result = await work({
          query: async <T extends Row>(sql: string, params: readonly unknown[] = []) =>
            (await client.query<T>(sql, [...params])).rows,
        })
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback')
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

/**
 * Applies the migrations not yet recorded, in order, each in its own transaction. Several service
 * processes may start at once on one PostgreSQL, so an advisory lock makes them take turns.
 */
async function migrate(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(424242)')
    await tx.query(
      'create table if not exists airlock_migrations (id integer primary key, name text not null, applied_at timestamptz not null default now())',
    )
    const done = new Set(
      (await tx.query<{ id: number }>('select id from airlock_migrations')).map((row) => row.id),
    )
    for (const [index, migration] of migrations.entries()) {
      if (done.has(index + 1)) continue
      for (const statement of migration.statements) await tx.query(statement)
      await tx.query('insert into airlock_migrations (id, name) values ($1, $2)', [index + 1, migration.name])
    }
  })
}
