/**
 * Promise helpers both sides of the bridge need: a promise settled from outside, and a time limit on one.
 */

/** A promise with its `resolve` and `reject` at hand. */
export type Deferred<T> = {
  promise: Promise<T>
  resolve(value: T): void
  reject(reason?: unknown): void
}

/**
 * A promise to settle later, from elsewhere. A rejection nobody awaits yet is not reported as unhandled:
 * whoever awaits `promise` later still gets it.
 * @example
 * const ready = Async.deferred<void>()
 * port.onmessage = () => ready.resolve()
 * await ready.promise
 */
export function deferred<T = void>(): Deferred<T> {
  const deferred = {} as Deferred<T>
  deferred.promise = new Promise<T>((resolve, reject) => Object.assign(deferred, { resolve, reject }))
  deferred.promise.catch(() => {})
  return deferred
}

/** The clock {@link withTimeout} uses, injectable so tests control time. */
export type Timers = {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The global timers. */
export const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
}

/**
 * Settles as `promise` does, or rejects with `onTimeout()` if `ms` pass first. The timer is cleared
 * either way, so nothing keeps running after the answer.
 * @example
 * const timedOut = () => new Errors.InternalError('The wallet did not answer.')
 * const accounts = await Async.withTimeout(connector.connect(), 10_000, timedOut)
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => unknown,
  timers: Timers = realTimers,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(onTimeout()), ms)
    promise.then(
      (value) => {
        timers.clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        timers.clearTimeout(timer)
        reject(error)
      },
    )
  })
}

/**
 * Runs `load` on first use and shares its promise with every caller; a failure is forgotten, so the next
 * call tries again (a chunk that failed to download, an API that was down a moment).
 * @example
 * const registry = Async.once(() => import('./WalletRegistry.ts'))
 * await registry() // loads; later calls share it
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    loading ??= load()
    loading.catch(() => {
      loading = undefined
    })
    return loading
  }
}
