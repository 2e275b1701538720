/**
 * Calls to the API that try again when trying again can help: 3 attempts, 150 ms then 300 ms apart, or as
 * long as the API's `Retry-After` says, each attempt abandoned after 10 s. What is retried:
 * - no answer (network error, time-out) and 408, 429, 500, 502, 503, 504, for calls that are safe to repeat
 *   (`'failed'`: reads, and asking for a fresh nonce);
 * - only 429 for calls that are not (`'refused'`: signing in spends a nonce), since the API refuses a 429
 *   before it does anything for the request.
 * 403 and 413 are not retried: the API answers them for an unknown project and a body too large, which
 * another try cannot change, and an unknown project must reach the visitor at once.
 */

/** Which failures a call may be tried again after. */
export type When = 'failed' | 'refused'

export type RetryOptions = {
  /** Attempts in all. @default 3 */
  attempts?: number
  /** The first wait without `Retry-After`; it doubles after each attempt. @default 150 */
  baseMs?: number
  /** A `Retry-After` longer than this is not waited for: the refusal is the answer. @default 10_000 */
  maxWaitMs?: number
  /** Each attempt's time-out. @default 10_000 */
  timeoutMs?: number
  /** @default setTimeout */
  sleep?: (ms: number) => Promise<void>
  /** For `Retry-After` dates. @default Date.now */
  now?: () => number
}

const retriedStatuses: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504])

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * `fetcher(input, init)` with retries; resolves with the last answer, or rejects with the last failure.
 * @example
 * const response = await Retry.fetch(fetch, url, { credentials: 'omit' }, 'failed')
 */
export async function fetch(
  fetcher: typeof globalThis.fetch,
  input: URL,
  init: RequestInit,
  when: When,
  options: RetryOptions = {},
): Promise<Response> {
  const attempts = options.attempts ?? 3
  const sleep = options.sleep ?? wait
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= attempts
    let response: Response
    try {
      response = await fetcher(input, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) })
    } catch (error) {
      if (last || when !== 'failed' || !unanswered(error)) throw error
      await sleep(backoff(attempt, options))
      continue
    }
    if (last || !retried(response.status, when)) return response
    const delay = retryAfterMs(response.headers.get('Retry-After'), options.now ?? Date.now)
    if (delay !== undefined && delay > (options.maxWaitMs ?? 10_000)) return response
    // The answer being dropped still holds its connection until its body is read or cancelled.
    await response.body?.cancel()
    await sleep(delay ?? backoff(attempt, options))
  }
}

function retried(status: number, when: When): boolean {
  return when === 'failed' ? retriedStatuses.has(status) : status === 429
}

/** fetch rejects with a TypeError when nothing answered, and with the signal's reason on a time-out. */
function unanswered(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof DOMException && error.name === 'TimeoutError')
}

function backoff(attempt: number, options: RetryOptions): number {
  return (options.baseMs ?? 150) * 2 ** (attempt - 1)
}

/** `Retry-After` in ms: whole seconds or an HTTP date; `undefined` when absent or unreadable. */
function retryAfterMs(value: string | null, now: () => number = Date.now): number | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now())
}
