/**
 * Load from autocannon, in a process of its own (in the bench's it would share an event loop with what it
 * measures), through its programmatic API. Placeholders are drawn afresh for each request, so one run speaks
 * for many visitors of many projects, and no two connections send the same visitor's requests in step (a
 * list would: every connection goes through it from its start): `{visitor}` an address of `visitors`,
 * `{project}` a number below `projects`, `{uuid}` a fresh UUID (analytics events are written once per id).
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export type CannonRequest = {
  path: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
}

export type Cannon = {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
  statusCodeStats?: Record<string, { count: number }>
  /** CPU time the load generator's process took, ms. */
  cpuMs: number
}

export type CannonOptions = {
  /** How many addresses `{visitor}` is drawn from (10.77.x.y). @default 1_000 */
  visitors?: number
  /** How many numbers `{project}` is drawn from. @default 50 */
  projects?: number
  /** @default 10 */
  connections?: number
  /** @default 5 */
  seconds?: number
  /** A request unanswered this long counts as a time-out. @default 10 */
  timeoutSeconds?: number
  /** Stop after this many requests instead of after `seconds`. */
  amount?: number
}

const autocannon = fileURLToPath(new URL('../node_modules/autocannon', import.meta.url))

// The options come on stdin: a list of 1,000 requests is longer than one argument may be.
const script = `const { randomInt, randomUUID } = require('node:crypto')
let input = ''
process.stdin.on('data', (chunk) => { input += chunk }).on('end', () => {
  const options = JSON.parse(input)
  const fill = (text) => text
    .replaceAll('{uuid}', () => randomUUID())
    .replaceAll('{project}', () => String(randomInt(options.projects)))
    .replaceAll('{visitor}', () => {
      const n = randomInt(options.visitors)
      return '10.77.' + Math.floor(n / 250) + '.' + ((n % 250) + 1)
    })
  for (const request of options.requests) {
    const template = request
    request.setupRequest = (next) => ({
      ...next,
      path: fill(template.path),
      headers: Object.fromEntries(Object.entries(template.headers || {}).map(([k, v]) => [k, fill(v)])),
      ...(template.body ? { body: fill(template.body) } : {}),
    })
  }
  require(process.argv[1])(options, (error, result) => {
    if (error) { console.error(error); process.exit(1) }
    // The load generator's own CPU, to tell how much of the machine the measuring took.
    const cpu = process.cpuUsage()
    process.stdout.write(JSON.stringify({ ...result, cpuMs: (cpu.user + cpu.system) / 1000 }))
  })
})`

/**
 * @example
 * const run = await cannon('http://127.0.0.1:8787', [{ path: '/health' }], { connections: 200, seconds: 10 })
 */
export async function cannon(
  origin: string,
  requests: CannonRequest[],
  options: CannonOptions = {},
): Promise<Cannon> {
  const run = promisify(execFile)(process.execPath, ['-e', script, autocannon], { maxBuffer: 16 << 20 })
  run.child.stdin?.end(
    JSON.stringify({
      url: origin,
      requests,
      ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 5 }),
      connections: options.connections ?? 10,
      timeout: options.timeoutSeconds ?? 10,
      visitors: options.visitors ?? 1_000,
      projects: options.projects ?? 50,
    }),
  )
  const { stdout } = await run
  return JSON.parse(stdout) as Cannon
}

/** The answers refused with 429. */
export const refused = (run: Cannon) => run.statusCodeStats?.['429']?.count ?? 0
