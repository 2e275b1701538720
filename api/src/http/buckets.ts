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

/** Not now: try again in `retryAfterS` whole seconds. */
export type Refusal = { ok: false; retryAfterS: number }

/**
 * Taken, for one request's worth: call `release` when the answer is out, and `weigh` when the request turns
 * out to be worth more than one (a JSON-RPC batch: one per call).
 */
export type Taken = {
  ok: true
  release(): void
  /**
   * Takes what the request still owes for `weight` requests, all or nothing: refused (and nothing taken)
   * when the bucket holds less. No request owes more than a full bucket, or it would wait forever.
   */
  weigh(weight: number): { ok: true } | Refusal
}

export type Admission = Taken | Refusal

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

  // A clock that steps back (NTP, or a test's clock) refills nothing until it passes the last reading again,
  // rather than taking tokens away: a negative interval would refuse a client that did nothing.
  const refill = (entry: Entry, at: number) => {
    if (at <= entry.at) return
    entry.tokens = Math.min(budget.burst, entry.tokens + ((at - entry.at) / 1000) * budget.perSecond)
    entry.at = at
  }
  // A key whose bucket is full again and holds nothing is the same as no entry: forgetting it costs nothing.
  const idle = (entry: Entry, at: number) =>
    entry.inFlight === 0 && entry.tokens + ((at - entry.at) / 1000) * budget.perSecond >= budget.burst
  const refusal = (entry: Entry, tokens: number): Refusal => ({
    ok: false,
    retryAfterS: Math.max(1, Math.ceil((tokens - entry.tokens) / budget.perSecond)),
  })
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
      if (entry.tokens < 1) return refusal(entry, 1)
      entry.tokens -= 1
      entry.inFlight += 1
      const held = entry
      let released = false
      let paid = 1
      return {
        ok: true,
        release() {
          if (released) return
          released = true
          held.inFlight -= 1
        },
        weigh(weight) {
          const owed = Math.min(weight, budget.burst) - paid
          if (owed <= 0) return { ok: true }
          refill(held, now())
          if (held.tokens < owed) return refusal(held, owed)
          held.tokens -= owed
          paid += owed
          return { ok: true }
        },
      }
    },
    get size() {
      return entries.size
    },
  }
}
