/**
 * CORS: the API answers browsers on the modal origin and on the origins of the project named in the query,
 * nobody else, so a page that is not on a project's list cannot read the API in that project's name. No
 * credentials, ever: the API reads no cookies, and a browser must not send any.
 *
 * Logins and the embedded wallet (`/v1/auth/…`, `/v1/wallet…`) answer the modal origin only: their answers
 * carry session tokens and key shares, which the host page must never read (SECURITY.md). A project's own
 * origins could otherwise call `/v1/auth/email/verify` with a code the visitor typed and keep the session.
 *
 * Two halves, because refusals come before the project is known: {@link Cors.headers} goes first and marks
 * every answer on its way out (a 429 the modal must read, with its `Retry-After`, included), and
 * {@link Cors.preflight} answers preflights once the project is known.
 */
import type { Context, MiddlewareHandler } from 'hono'
import * as Projects from '../features/projects/Projects.ts'
import type { Env } from './project.ts'

export type Cors = { headers: MiddlewareHandler<Env>; preflight: MiddlewareHandler<Env> }

/** Preflights are cached for 10 minutes: a page's calls then cost one request each. */
const maxAgeS = 600

/** The paths only the modal origin may read. */
const modalOnly = /^\/v1\/(?:auth\/|wallet)/

/**
 * @example
 * const { headers, preflight } = cors('https://modal.example')
 * app.use(headers) // first
 * app.use(Project.middleware(findProject), preflight)
 */
export function cors(modalOrigin: string): Cors {
  const allowed = (c: Context<Env>) => {
    const origin = c.req.header('Origin')
    if (!origin) return undefined
    if (origin === modalOrigin) return origin
    if (modalOnly.test(c.req.path)) return undefined
    const project = c.get('project')
    return project && Projects.allows(project, origin) ? origin : undefined
  }
  return {
    async headers(c, next) {
      await next()
      const origin = allowed(c)
      const marks: [string, string][] = origin
        ? [
            ['Access-Control-Allow-Origin', origin],
            ['Access-Control-Expose-Headers', 'Retry-After'],
          ]
        : []
      // On the answer's own headers: Hono's c.header on a finished answer copies it whole (@hono/node-server
      // then builds a full fetch Response and streams its body, ~3× the CPU of the answer itself under a
      // flood). An answer whose headers are immutable (one passed on from fetch) is copied, as before.
      try {
        c.res.headers.append('Vary', 'Origin')
        for (const [name, value] of marks) c.res.headers.set(name, value)
      } catch {
        c.header('Vary', 'Origin', { append: true })
        for (const [name, value] of marks) c.header(name, value)
      }
    },
    async preflight(c, next) {
      if (c.req.method !== 'OPTIONS' || !c.req.header('Access-Control-Request-Method')) return next()
      // An origin not on the list learns nothing: no methods, no headers, nothing to cache.
      if (!allowed(c)) return c.body(null, 204)
      return c.body(null, 204, {
        'Access-Control-Allow-Methods': 'GET, POST',
        // Authorization carries an email login's bearer token (never a cookie: credentials stay off).
        'Access-Control-Allow-Headers': 'Content-Type, Authorization',
        'Access-Control-Max-Age': String(maxAgeS),
      })
    },
  }
}
