/**
 * `serve --workers <n>`: n processes of the server behind one port, with Node's `cluster` (the primary
 * accepts connections and deals them out in turn). One Node process uses one core for its JavaScript, so a
 * machine serves with about one worker per core; the primary only forwards connections. PostgreSQL only:
 * PGlite is one process's database. Each worker keeps its own rate-limit budgets (`http/buckets.ts`), so a
 * client spread over many connections may spend up to n times its budget; set `limits` per process.
 */
import cluster, { type Worker } from 'node:cluster'
import * as ConfigFile from './ConfigFile.ts'
import * as Database from './Database.ts'
import * as Child from './internal/child.ts'

/** A worker that exits this soon after its start is failing, not crashing once: no restart. */
const restartAfterMs = 10_000

/** Whether this process is one of the workers a primary forked (each tells it its URL: `Child.announce`). */
export const isWorker = cluster.isWorker

/**
 * The primary: checks the settings, brings the database up to date once (the workers then find nothing
 * to migrate), forks `workers` processes with this process's arguments, and runs until SIGINT or SIGTERM,
 * replacing a worker that crashes. The exit code is 1 after a bad setting, nothing started.
 */
export async function primary(workers: number, configPath: string | undefined): Promise<number> {
  try {
    const { database } = ConfigFile.load({ path: configPath, env: process.env })
    if (!database.url)
      throw new ConfigFile.ConfigError(
        '--workers needs PostgreSQL (DATABASE_URL): PGlite is one process’s database.',
      )
    await (await Database.open({ url: database.url })).close()
  } catch (error) {
    console.error(`[airlock-api] ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  let stopping = false
  const started = new Map<Worker, number>()
  const fork = () => started.set(cluster.fork(), Date.now())
  // Ready once every worker listens, so the first requests already meet them all.
  const listening = new Promise<string>((resolve, reject) => {
    let ready = 0
    cluster.on('message', (_worker, message: { url?: unknown }) => {
      if (typeof message.url === 'string' && ++ready === workers) resolve(message.url)
    })
    cluster.on('exit', (worker, code, signal) => {
      const at = started.get(worker) ?? 0
      started.delete(worker)
      if (stopping) return
      const how = signal ?? `code ${code}`
      if (Date.now() - at < restartAfterMs) return reject(new Error(`A worker exited at its start (${how})`))
      console.error(`[airlock-api] A worker exited (${how}); starting another.`)
      fork()
    })
  })
  for (let i = 0; i < workers; i++) fork()
  const stop = async () => {
    stopping = true
    await Promise.all(
      [...started.keys()].map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve())
            worker.kill('SIGTERM')
          }),
      ),
    )
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  let url: string
  try {
    url = await listening
  } catch (error) {
    console.error(`[airlock-api] ${(error as Error).message}`)
    await stop()
    return 1
  }
  if (!Child.announce(url, stop)) console.log(`Airlock API on ${url} (postgres, ${workers} workers)`)
  return new Promise<number>(() => {})
}
