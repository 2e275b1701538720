/**
 * A chain followed step by step into the database by one replica at a time: the loop the history indexer
 * and the sponsorship follower each run per chain. A loop steps only while its replica holds the chain's
 * writer lock; otherwise it tries again every `lockRetryMs`. RPC and database failures are retried with
 * backoff (said once per outage), never thrown; `idle` waits `pollMs` before the next step.
 */
import type { WriterLock } from '../features/history/WriterLock.ts'

/** What a loop reports of its chain. */
export type LoopStatus = {
  chainId: string
  /** Whether this replica holds the chain's writer lock. */
  writing: boolean
  /** The last failure while it persists. */
  failing: string | undefined
}

export type LoopOptions = {
  chainId: string
  lock: WriterLock
  /** One step; `idle` when caught up. */
  step(): Promise<string>
  /** Ends the loop (a step in flight finishes first). */
  signal: AbortSignal
  pollMs: number
  lockRetryMs: number
  /** The longest wait between retries after failures (the wait doubles from `pollMs`). */
  maxBackoffMs: number
  log(message: string): void
  /** What the loop does, for its log: `indexing`. */
  doing: string
  /** Told after each step, and when the loop changes its status. */
  onStatus?(status: LoopStatus): void
}

/**
 * Runs until `signal` aborts; resolves with the last status.
 * @example
 * const done = follow({ chainId, lock, step: follower.step, signal, pollMs: 300, lockRetryMs: 1_000, maxBackoffMs: 10_000, log, doing: 'indexing' })
 */
export async function follow(options: LoopOptions): Promise<LoopStatus> {
  const { chainId, lock, signal, pollMs, log } = options
  const status: LoopStatus = { chainId, writing: false, failing: undefined }
  let failures = 0
  while (!signal.aborted) {
    try {
      status.writing = lock.holds(chainId) || (await lock.tryAcquire(chainId))
      options.onStatus?.(status)
      if (!status.writing) {
        await sleep(options.lockRetryMs, signal)
        continue
      }
      const step = await options.step()
      if (failures > 0) log(`${chainId}: ${options.doing} again after ${failures} failed attempts`)
      failures = 0
      status.failing = undefined
      options.onStatus?.(status)
      if (step === 'idle') await sleep(pollMs, signal)
    } catch (error) {
      // Said once per outage, not once per retry.
      if (failures === 0) log(`${chainId}: ${describe(error)}; retrying`)
      status.failing = describe(error)
      options.onStatus?.(status)
      failures++
      await sleep(Math.min(options.maxBackoffMs, pollMs * 2 ** failures), signal)
    }
  }
  status.writing = false
  options.onStatus?.(status)
  return status
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })
}
