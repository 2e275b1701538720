/**
 * Budgets per key (a client address, a project), kept in this process's memory: a token bucket bounds the
 * requests a key makes over time, a count of its unanswered requests bounds what it holds at once. Each
 * process keeps its own, so N processes behind a load balancer allow N times the budget; a shared store
 * (Redis) would be the next step if that ever matters more than a lookup per request.
 */

export type Budget = {
  /** Requests a key that has been quiet may send at once. */
  burst: number
  /** Requests per second a key may keep up. */
  perSecond: number
  /** Requests a key may have unanswered at the same time. */
  inFlight: number
}

/** Taken: call `release` when the answer is out. Refused: try again in `retryAfterS` whole seconds. */
export type Admission = { ok: true; release(): void } | { ok: false; retryAfterS: number }

export type Buckets = {
  take(key: string): Admission
  /** How many keys are tracked (bounded by `maxKeys`). */
  readonly size: number
}

export type BucketsOptions = {
  /** @default Date.now */
  now?: (() => number) | undefined
  /** Keys tracked at most; the least recently seen go first. @default 10_000 */
  maxKeys?: number | undefined
}

type Entry = { tokens: number; at: number; inFlight: number }

/**
 * @example
 * const perClient = Buckets.create({ burst: 600, perSecond: 100, inFlight: 64 })
 * const admission = perClient.take('203.0.113.7')
 * if (admission.ok) try { … } finally { admission.release() }
 */
export function create(budget: Budget, options: BucketsOptions = {}): Buckets {
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? 10_000
  // A Map iterates in insertion order; re-inserting on every use keeps the least recently seen first.
  const entries = new Map<string, Entry>()

  const refill = (entry: Entry, at: number) => {
    entry.tokens = Math.min(budget.burst, entry.tokens + ((at - entry.at) / 1000) * budget.perSecond)
    entry.at = at
  }
  // A key whose bucket is full again and holds nothing is the same as no entry: forgetting it costs nothing.
  const idle = (entry: Entry, at: number) =>
    entry.inFlight === 0 && entry.tokens + ((at - entry.at) / 1000) * budget.perSecond >= budget.burst
  const evict = (at: number) => {
    for (const [key, entry] of entries) {
      if (entries.size < maxKeys && !idle(entry, at)) return
      entries.delete(key)
    }
  }

  return {
    take(key) {
      const at = now()
      let entry = entries.get(key)
      if (entry) {
        entries.delete(key)
        refill(entry, at)
      } else {
        evict(at)
        entry = { tokens: budget.burst, at, inFlight: 0 }
      }
      entries.set(key, entry)
      if (entry.inFlight >= budget.inFlight) return { ok: false, retryAfterS: 1 }
      if (entry.tokens < 1)
        return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - entry.tokens) / budget.perSecond)) }
      entry.tokens -= 1
      entry.inFlight += 1
      const held = entry
      let released = false
      return {
        ok: true,
        release() {
          if (released) return
          released = true
          held.inFlight -= 1
        },
      }
    },
    get size() {
      return entries.size
    },
  }
}
