/**
 * A flood on the API: 200 connections for 15 s on the registry search, from one address, as one abusive
 * client would: it writes no `X-Forwarded-For`, so although the bench's stack trusts one proxy, every request
 * counts by its socket's address and meets one client's budget (the 429s are the point; the capacity runs in
 * run.ts speak for many visitors instead). What it records: the rate answered, p99 latency, requests
 * unanswered after 10 s (time-outs), socket errors, refusals (429) apart from other non-2xx answers, and the
 * resident memory of the process that serves the API (the stack runs in the bench's own process) before,
 * right after and 5 s after.
 * Goal: no time-outs, p99 under 1 s, memory 5 s after no higher than right after.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export type FloodOptions = {
  /** @default 200 */
  connections?: number
  /** @default 15 */
  seconds?: number
  /** How long after the flood memory is read again. @default 5_000 */
  settleMs?: number
}

export type Cannon = {
  requests: { average: number }
  latency: { p50: number; p99: number }
  errors: number
  timeouts: number
  non2xx: number
  statusCodeStats?: Record<string, { count: number }>
}

const autocannon = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url))
const megabytes = () => Math.round(process.memoryUsage().rss / 2 ** 20)
// RSS stays high after a burst even when nothing leaks (V8 keeps the pages it grew into); what is still
// reachable after a full collection is what a leak would grow.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
const liveHeap = () => {
  collect()
  return Math.round(process.memoryUsage().heapUsed / 2 ** 20)
}

/**
 * @example
 * Object.assign(results, await flood(stack.apiUrl))
 */
export async function flood(apiUrl: string, options: FloodOptions = {}): Promise<Record<string, number>> {
  const url = `${apiUrl}/getWallets?projectId=demo&st=bench&sv=0&search=wal`
  const before = megabytes()
  const heapBefore = liveHeap()
  // autocannon runs in a process of its own: in this one it would take the event loop from the API.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      autocannon,
      '-j',
      '-c',
      String(options.connections ?? 200),
      '-d',
      String(options.seconds ?? 15),
      '-t',
      '10',
      url,
    ],
    { maxBuffer: 16 << 20 },
  )
  const after = megabytes()
  await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 5_000))
  const run = JSON.parse(stdout) as Cannon
  const refused = run.statusCodeStats?.['429']?.count ?? 0
  return {
    floodRps: Math.round(run.requests.average),
    floodP50Ms: run.latency.p50,
    floodP99Ms: run.latency.p99,
    floodTimeouts: run.timeouts,
    floodErrors: run.errors,
    flood429: refused,
    floodOtherNon2xx: run.non2xx - refused,
    floodRssBeforeMb: before,
    floodRssAfterMb: after,
    floodRssSettledMb: megabytes(),
    floodLiveHeapBeforeMb: heapBefore,
    floodLiveHeapSettledMb: liveHeap(),
  }
}
