/**
 * Starting a deployment: its settings checked first (`ConfigFile`: one error naming the bad key or variable,
 * nothing opened), then the database brought up to date, the wallet registry seeded when it is empty, the
 * history indexer, the follower of sponsored operations' costs and the listeners. `server.ts` (the built `dist/server.js`) and `airlock-api serve` run it.
 */
import { parseArgs } from 'node:util'
import * as Cluster from './Cluster.ts'
import * as ConfigFile from './ConfigFile.ts'
import * as Database from './Database.ts'
import * as History from './features/history/index.ts'
import * as Sponsorship from './features/paymaster/Follower.ts'
import * as Registry from './features/registry/Registry.ts'
import * as Child from './internal/child.ts'
import * as Service from './Service.ts'

type StartOptions = {
  /** The configuration file. @default env.AIRLOCK_CONFIG */
  config?: string | undefined
  /** The modal build to serve from this process too; none without it. */
  modalDir?: string | undefined
  /** @default '127.0.0.1' */
  host?: string | undefined
  /** @default 8787 */
  apiPort?: number | undefined
  /** @default 5174 */
  modalPort?: number | undefined
  /** Processes serving (`Cluster.ts`). @default 1 */
  workers?: number | undefined
  env: ConfigFile.Env
}

type Started = Service.Running & { engine: Database.Database['engine']; stop(): Promise<void> }

/** Starts everything, or opens nothing and throws the first bad setting. */
async function start(options: StartOptions): Promise<Started> {
  const { config, database } = ConfigFile.load({ path: options.config, env: options.env })
  const db = await Database.open({ url: database.url, dataDir: database.dataDir }).catch((error: Error) => {
    throw new ConfigFile.ConfigError(unopened(database, error))
  })
  let indexer: History.Indexer.Indexer | undefined
  let sponsorship: { stop(): Promise<void> } | undefined
  try {
    await seedRegistry(db)
    // Replicas on one PostgreSQL each start them: one per chain writes (an advisory lock), the others wait.
    indexer = History.Indexer.start({ db, config, lockUrl: database.url })
    sponsorship = Sponsorship.start({ db, config, lockUrl: database.url })
    const running = await Service.listen(Service.create({ db, config, modalDir: options.modalDir }), {
      host: options.host,
      apiPort: options.apiPort,
      modalPort: options.modalPort,
    })
    return {
      ...running,
      engine: db.engine,
      stop: async () => {
        await running.stop()
        await indexer?.stop()
        await sponsorship?.stop()
        await db.close()
      },
    }
  } catch (error) {
    await indexer?.stop()
    await sponsorship?.stop()
    await db.close()
    const { code, address, port } = error as { code?: string; address?: string; port?: number }
    if (code === 'EADDRINUSE')
      throw new ConfigFile.ConfigError(
        `${address}:${port} is in use: stop what listens there, or pick another port (--api-port, --modal-port).`,
      )
    throw error
  }
}

/** Why the database did not open, and what to check; the URL without its password. */
function unopened(database: ConfigFile.Database, error: Error): string {
  if (!database.url)
    return `PGlite in ${database.dataDir} did not open (${error.message}): point dataDir or AIRLOCK_DATA at a folder this user may write, used by no other running server.`
  const url = new URL(database.url)
  if (url.password) url.password = '***'
  return `DATABASE_URL ${url}: no connection (${error.message}): is PostgreSQL running, reachable from here, and is the database created?`
}

/**
 * The first start of a deployment fills the registry (`/getWallets` would list nothing); later ones leave it
 * as the operator keeps it (`airlock-api seed registry` loads the shipped list again).
 */
async function seedRegistry(db: Database.Database): Promise<void> {
  const count = async () => Number((await db.query<{ n: string }>('select count(*) as n from wallets'))[0]?.n)
  if ((await count()) > 0) return
  try {
    console.log(`[airlock-api] Seeded the wallet registry: ${await Registry.seed(db)} wallets.`)
  } catch (error) {
    // Another replica starting on the same PostgreSQL seeded it first.
    if ((await count()) === 0) throw error
  }
}

/** The command line's flags as {@link StartOptions}; a bad one is a `ConfigError` naming it. */
function options(args: readonly string[], env: ConfigFile.Env): StartOptions {
  let values: Record<string, string | undefined>
  try {
    values = parseArgs({
      args: [...args],
      options: {
        config: { type: 'string' },
        'modal-dir': { type: 'string' },
        host: { type: 'string' },
        'api-port': { type: 'string' },
        'modal-port': { type: 'string' },
        workers: { type: 'string' },
      },
    }).values
  } catch (error) {
    throw new ConfigFile.ConfigError(`${(error as Error).message} (flags: ${flags})`)
  }
  return {
    config: values.config,
    modalDir: values['modal-dir'],
    host: values.host,
    apiPort: port(values['api-port'], '--api-port'),
    modalPort: port(values['modal-port'], '--modal-port'),
    workers: workerCount(values.workers),
    env,
  }
}

/** The flags {@link options} reads, for usage texts. */
export const flags =
  '--config <file> [--modal-dir <dir>] [--host 127.0.0.1] [--api-port 8787] [--modal-port 5174] [--workers 1]'

function workerCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1)
    throw new ConfigFile.ConfigError(`--workers ${value}: expected a number of processes, 1..999`)
  return Number(value)
}

function port(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!/^\d{1,5}$/.test(value) || n > 65535)
    throw new ConfigFile.ConfigError(`${flag} ${value}: expected a port, 0..65535`)
  return n
}

/**
 * Runs until SIGINT or SIGTERM: the whole life of `node api/dist/server.js`. A bad setting is printed as one
 * line and the exit code is 1; nothing was started.
 */
export async function serve(args: readonly string[]): Promise<number> {
  let started: Started
  try {
    const parsed = options(args, process.env)
    if (!Cluster.isWorker && (parsed.workers ?? 1) > 1)
      return Cluster.primary(parsed.workers ?? 1, parsed.config)
    started = await start(parsed)
  } catch (error) {
    console.error(`[airlock-api] ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  const { apiUrl, modalUrl, engine } = started
  const stop = async () => {
    await started.stop()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // Started by a parent (the dev stack, the bench, the primary of `--workers`), it tells the parent instead.
  if (!Child.announce(apiUrl, stop))
    console.log(`Airlock API on ${apiUrl}${modalUrl ? `, modal origin on ${modalUrl}` : ''} (${engine})`)
  return new Promise<number>(() => {})
}
