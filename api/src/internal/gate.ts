/**
 * A bound on the work under way toward one upstream (a chain's RPC): at most `limit` at once, up to
 * `waiting` more in line for at most `waitMs` each, and the rest refused at once. Under a flood the
 * upstream keeps answering in its own time and a request that cannot be served soon is told so in
 * milliseconds (a 503 with `Retry-After`), rather than queueing past its client's time-out.
 */

export type GateOptions = {
  /** Work under way at once. */
  limit: number
  /** Work that may wait for a place. */
  waiting: number
  /** How long one may wait before it is refused. */
  waitMs: number
}

/** The gate was full: nothing was started. */
export class GateFullError extends Error {
  override name = 'GateFullError'
  constructor() {
    super('Too much work under way')
  }
}

export type Gate = {
  /** Runs `work` when a place is free; rejects with {@link GateFullError}, `work` never called, when none is soon. */
  run<T>(work: () => Promise<T>): Promise<T>
  /** Work under way, and waiting. */
  readonly load: { running: number; waiting: number }
}

/**
 * @example
 * const gate = Gate.create({ limit: 32, waiting: 256, waitMs: 2_000 })
 * await gate.run(() => client.getBalance({ address }))
 */
export function create(options: GateOptions): Gate {
  let running = 0
  const line: { start(): void; timer: NodeJS.Timeout }[] = []
  const done = () => {
    running -= 1
    const next = line.shift()
    if (!next) return
    clearTimeout(next.timer)
    next.start()
  }
  return {
    run(work) {
      const go = () => {
        running += 1
        let started: ReturnType<typeof work>
        try {
          started = work()
        } catch (error) {
          started = Promise.reject(error)
        }
        return started.finally(done)
      }
      if (running < options.limit) return go()
      if (line.length >= options.waiting) return Promise.reject(new GateFullError())
      return new Promise((resolve, reject) => {
        const place = {
          start: () => go().then(resolve, reject),
          timer: setTimeout(() => {
            line.splice(line.indexOf(place), 1)
            reject(new GateFullError())
          }, options.waitMs),
        }
        line.push(place)
      })
    },
    get load() {
      return { running, waiting: line.length }
    },
  }
}
