/**
 * CORS: the API answers browsers on the modal origin and on the origins of the project named in the query,
 * nobody else, so a page that is not on a project's list cannot read the API in that project's name.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { cors as honoCors } from 'hono/cors'
import * as Projects from '../features/projects/Projects.ts'
import type { Env } from './project.ts'

/** Preflights are cached for 10 minutes: a page's calls then cost one request each. */
export function cors(modalOrigin: string): MiddlewareHandler<Env> {
  return honoCors({
    origin: (origin, c: Context<Env>) => {
      const project = c.get('project')
      return origin === modalOrigin || (project && Projects.allows(project, origin)) ? origin : null
    },
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Content-Type'],
    maxAge: 600,
  })
}
