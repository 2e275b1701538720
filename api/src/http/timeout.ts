/**
 * Request time-out: a request still unanswered after `ms` is answered 503 `{ message }` at once. JavaScript
 * cannot stop the handler, so its work runs on and its answer is dropped; what it waits on has bounds of
 * its own (the database's, a chain RPC's), so it ends too.
 */
import type { MiddlewareHandler } from 'hono'
import { HttpError, messages } from './errors.ts'

/** @example app.use(timeout(10_000)) */
export function timeout(ms: number): MiddlewareHandler {
  return async (_c, next) => {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new HttpError(503, messages.timedOut)), ms)
    })
    const work = next()
    // The abandoned work may still fail later; that failure has no one left to answer.
    work.catch(() => {})
    try {
      await Promise.race([work, late])
    } finally {
      clearTimeout(timer)
    }
  }
}
