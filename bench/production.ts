/**
 * The production API flooded on its own: `node api/dist/server.js`, the build a deployment runs, started
 * apart from the dev stack (whose chains it reads, in their own processes), once on PGlite and once on a
 * throwaway PostgreSQL where one is installed. Per database, 200 connections for `seconds` each on:
 * - the cached route: the wallet registry's search (`/getWallets`), the same few answers again and again;
 * - the uncached route: a balance read afresh from the chain (`forceUpdate=true`), of one address, so each
 *   read answers every request that arrived while the one before it was under way (`Cache.ts`);
 * - a write: analytics events (`POST /e`), each a new row;
 * spread over 1,000 visitors of 50 projects (`X-Forwarded-For`, one trusted proxy), so no budget is met; and
 * - the flood: the cached route from one client, as an abusive one sends it, which its budget refuses (429).
 * Each records the rate answered, p50/p99 latency, requests unanswered after 10 s (time-outs), socket
 * errors, 429s and other non-2xx answers, and the server's resident memory (its peak, and after).
 * Targets: on the cached route and the flood, 0 time-outs and p99 under 100 ms; refusals are answered as
 * fast as the cached route, not queued.
 * While a server is flooded, the dev stack's own processes run at a lower priority (`priority.ts`, and
 * `prod_stackNiceDelta` in the results); the server, its database and the load generator do not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiProcess, Database, Projects } from '@airlock/api'
import { devnetTokens } from '@airlock/devnet/chains'
import type * as Stack from '@airlock/devnet/stack'
import { type Cannon, type CannonRequest, cannon, refused } from './cannon.ts'
import { startPostgres } from './postgres.ts'
import { lowerStack } from './priority.ts'

export type ProductionOptions = {
  /** Each route's flood. @default 10 */
  seconds?: number
  /** @default 200 */
  connections?: number
  /**
   * PostgreSQL is flooded once more with this many processes (`serve --workers`), when above 1; PGlite is
   * one process's database. @default os.availableParallelism()
   */
  workers?: number
}

const projects = 50
const projectOf = (i: number | string) => `flood-${i}`
const dappOrigin = 'http://localhost:5173'
const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** A request from any of 1,000 visitors (behind the one proxy the server trusts) of any of the projects. */
const manyVisitors = (request: (projectId: string) => CannonRequest): CannonRequest[] => {
  const { headers, ...rest } = request(projectOf('{project}'))
  return [{ ...rest, headers: { ...headers, 'x-forwarded-for': '{visitor}' } }]
}

// As a browser asks (every one sends Accept-Encoding): a page of 15 KB as JSON is 3.4 KB in gzip.
const registry = (projectId: string) => ({
  path: `/getWallets?projectId=${projectId}&st=bench&sv=0&search=wal`,
  headers: { 'accept-encoding': 'gzip, deflate, br' },
})

/** The server's process and its children (the workers of `--workers`). */
function withChildren(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
  return [pid, ...(children ? children.split(' ').map(Number) : [])]
}

/**
 * Resident memory of the server, MB: now and its peak so far, summed over the process and its children
 * (the workers of `--workers`; each one's own peak, so the sum may exceed what was ever resident at once).
 */
function memory(pid: number | undefined): { rss: number; peak: number } {
  if (!pid) return { rss: Number.NaN, peak: Number.NaN }
  const pids = withChildren(pid)
  const kb = (field: string) =>
    pids.reduce((sum, each) => {
      const status = readFileSync(`/proc/${each}/status`, 'utf8')
      return sum + Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN)
    }, 0)
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) }
}

/**
 * CPU time the server took so far, ms, summed over the process and its children (the workers): with the
 * requests answered meanwhile, its cost per request, which other load on the machine does not change as
 * much as it changes latency.
 */
function cpuMs(pid: number | undefined): number {
  if (!pid) return Number.NaN
  const pids = withChildren(pid)
  // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux); the name before
  // them is in parentheses and may hold spaces.
  const ticks = pids.reduce((sum, each) => {
    const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return sum + Number(fields[11]) + Number(fields[12])
  }, 0)
  return ticks * 10
}

/**
 * @example
 * Object.assign(results, await productionFlood(stack))
 */
export async function productionFlood(
  stack: Stack.Stack,
  options: ProductionOptions = {},
): Promise<Record<string, number | string>> {
  const results: Record<string, number | string> = {}
  Object.assign(results, await onDatabase('pglite', stack, options, undefined))
  const postgres = await startPostgres()
  if ('missing' in postgres) {
    results.prodPostgres = postgres.missing
    console.warn(`[bench] The flood on PostgreSQL is skipped: ${postgres.missing}`)
  } else
    try {
      Object.assign(results, await onDatabase('postgres', stack, options, postgres.url))
      const workers = options.workers ?? availableParallelism()
      // A database of its own, so its writes start from nothing too.
      if (workers > 1) {
        const url = await postgres.createDatabase(`flood_workers_${workers}`)
        Object.assign(results, await onDatabase(`postgres_w${workers}`, stack, options, url, workers))
      }
    } finally {
      postgres.stop()
    }
  return results
}

async function onDatabase(
  engine: string,
  stack: Stack.Stack,
  options: ProductionOptions,
  databaseUrl: string | undefined,
  workers = 1,
): Promise<Record<string, number>> {
  const run = mkdtempSync(join(tmpdir(), 'airlock-bench-api-'))
  try {
    const dataDir = join(run, 'data')
    const db = await Database.open({ url: databaseUrl, dataDir })
    try {
      for (let i = 0; i < projects; i++) {
        await Projects.add(db, projectOf(i), [dappOrigin])
        await Projects.setAnalytics(db, projectOf(i), true)
      }
    } finally {
      await db.close()
    }
    const [chainA] = stack.devnet.chains
    const config = join(run, 'airlock.config.json')
    writeFileSync(
      config,
      JSON.stringify({
        apiUrl: 'http://127.0.0.1:8788',
        modalOrigin: stack.modalUrl,
        chains: [
          {
            id: chainA.caipNetworkId,
            name: chainA.chain.name,
            rpcUrl: chainA.rpcUrl,
            nativeCurrency: chainA.chain.nativeCurrency,
            testnet: true,
            tokens: Object.values(devnetTokens),
          },
        ],
        limits: { trustedProxies: 1 },
      }),
    )
    const api = await ApiProcess.spawn({
      config,
      env: databaseUrl ? { DATABASE_URL: databaseUrl } : { AIRLOCK_DATA: dataDir, DATABASE_URL: undefined },
      port: 0,
      args: workers > 1 ? ['--workers', String(workers)] : [],
    })
    const lowered = lowerStack([api.child.pid])
    console.log(
      `[bench] ${engine}: the dev stack's ${lowered.count} processes at nice +${lowered.niceDelta} while the server (at its own priority) is flooded`,
    )
    try {
      return {
        ...(await floods(engine, api.url, api.child.pid, options)),
        prod_stackNiceDelta: lowered.niceDelta,
      }
    } finally {
      lowered.restore()
      await api.stop()
    }
  } finally {
    rmSync(run, { recursive: true, force: true })
  }
}

async function floods(
  engine: string,
  url: string,
  pid: number | undefined,
  options: ProductionOptions,
): Promise<Record<string, number>> {
  const shape = { connections: options.connections ?? 200, seconds: options.seconds ?? 10, projects }
  const balance = (projectId: string) => ({
    path: `/v1/account/${holder}/balance?projectId=${projectId}&st=bench&sv=0&chainId=eip155:31337&forceUpdate=true`,
  })
  const event = (projectId: string) => ({
    path: `/e?projectId=${projectId}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', origin: dappOrigin },
    body: JSON.stringify({
      eventId: '{uuid}',
      url: `${dappOrigin}/`,
      domain: 'localhost:5173',
      timestamp: Date.now(),
      props: { type: 'track', event: 'MODAL_OPEN' },
    }),
  })
  const warm = await fetch(`${url}${registry(projectOf(0)).path}`, {
    headers: { 'x-forwarded-for': '10.78.0.1' },
  })
  if (!warm.ok) throw new Error(`The registry answered ${warm.status}`)
  const figures: Record<string, number> = {}
  const before = memory(pid)
  figures[`prod_${engine}_rssBeforeMb`] = before.rss
  let cpuBefore = cpuMs(pid)
  const record = (name: string, run: Cannon) => {
    const prefix = `prod_${engine}_${name}`
    const cpu = cpuMs(pid)
    // Per request answered, whatever its status; and the shares of one core the server and the load
    // generator took over the run.
    figures[`${prefix}ServerCpuUsPerRequest`] = Math.round(((cpu - cpuBefore) * 1000) / run.requests.total)
    figures[`${prefix}ServerCpuPct`] = Math.round((cpu - cpuBefore) / (shape.seconds * 10))
    figures[`${prefix}LoadGenCpuPct`] = Math.round(run.cpuMs / (shape.seconds * 10))
    cpuBefore = cpu
    figures[`${prefix}Rps`] = Math.round(run.requests.average)
    figures[`${prefix}P50Ms`] = run.latency.p50
    figures[`${prefix}P99Ms`] = run.latency.p99
    figures[`${prefix}Timeouts`] = run.timeouts
    figures[`${prefix}Errors`] = run.errors
    figures[`${prefix}429`] = refused(run)
    figures[`${prefix}OtherNon2xx`] = run.non2xx - refused(run)
    figures[`${prefix}RssPeakMb`] = memory(pid).peak
  }
  record('registry', await cannon(url, manyVisitors(registry), shape))
  record('balance', await cannon(url, manyVisitors(balance), shape))
  record('analytics', await cannon(url, manyVisitors(event), shape))
  // One client: no `X-Forwarded-For`, so every request counts against the socket's address.
  record('flood', await cannon(url, [registry(projectOf(0))], shape))
  await new Promise((resolve) => setTimeout(resolve, 5_000))
  figures[`prod_${engine}_rssSettledMb`] = memory(pid).rss
  return figures
}
