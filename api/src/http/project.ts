/**
 * The project of a request. Every route names its project in `?projectId`; the middleware looks it up once
 * per request, CORS (`cors.ts`) answers its origins, and {@link known} refuses a request whose project is
 * not configured.
 */
import type * as S from '@airlock/bridge-protocol/Shape'
import type { Context, MiddlewareHandler } from 'hono'
import type { Database } from '../Database.ts'
import * as Projects from '../features/projects/Projects.ts'
import { HttpError, messages } from './errors.ts'
import { parse } from './validate.ts'

/** How long a process may act on a project's old origins after an admin changed them. */
export const projectTtlMs = 5_000

/** What every route's context carries: the project named in the query, if it is configured. */
export type Env = { Variables: { project: Projects.Project | undefined } }

/** Looks a project up by id (memoised: see {@link lookup}). */
export type FindProject = (id: string) => Promise<Projects.Project | undefined>

/**
 * The project lookup the API uses: {@link Projects.memo} for {@link projectTtlMs}, so a burst of requests
 * costs one query and an admin's change reaches every process within 5 s.
 */
export function lookup(db: Pick<Database, 'query'>, now?: () => number): FindProject {
  return Projects.memo(db, projectTtlMs, now)
}

/** Sets the `project` of the request from `?projectId`. */
export function middleware(findProject: FindProject): MiddlewareHandler<Env> {
  return async (c, next) => {
    const id = c.req.query('projectId')
    c.set('project', id ? await findProject(id) : undefined)
    await next()
  }
}

/** Parses the query with `shape` and requires a configured project (from the query or `bodyProjectId`). */
export function known<T extends { projectId: string }>(
  c: Context<Env>,
  shape: S.Shape<T>,
  bodyProjectId?: string,
): T & { project: Projects.Project } {
  const query = c.req.query()
  const parsed = parse(
    shape,
    bodyProjectId && !query.projectId ? { ...query, projectId: bodyProjectId } : query,
  )
  const project = c.get('project')
  if (!project || project.id !== parsed.projectId) throw new HttpError(403, messages.projectNotConfigured)
  return { ...parsed, project }
}
