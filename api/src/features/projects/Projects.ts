/**
 * Projects and the origins allowed to use them. The modal refuses a handshake from an origin not on its
 * project's list, and the modal origin sends the list as CSP `frame-ancestors`, so a browser will not even
 * frame the modal elsewhere. Patterns are those of the bridge's `Origin.matches`.
 */
import { Origin } from '@airlock/bridge-protocol'
import type { Database } from '../../Database.ts'

export type Project = { id: string; origins: string[]; analyticsEnabled: boolean }

const idPattern = /^[A-Za-z0-9_-]{1,64}$/
const patternSyntax = /^(https?):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}|\*))?$/i

/** A project id is 1–64 letters, digits, `_` or `-`. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && idPattern.test(value)
}

/**
 * An origin pattern: an origin, optionally with a `*` port or a `*.` subdomain. The same syntax is valid
 * CSP, which is why nothing wider (a bare `*`, paths) is accepted.
 */
export function isOriginPattern(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 256 && patternSyntax.test(value)
}

/** The project, or `undefined` when it is not configured. */
export async function find(db: Pick<Database, 'query'>, id: string): Promise<Project | undefined> {
  if (!isId(id)) return undefined
  const rows = await db.query<{ analytics_enabled: boolean; origin: string | null }>(
    `select p.analytics_enabled, o.origin from projects p
     left join project_origins o on o.project_id = p.id where p.id = $1 order by o.origin`,
    [id],
  )
  const [first] = rows
  if (!first) return undefined
  return {
    id,
    analyticsEnabled: first.analytics_enabled,
    origins: rows.flatMap((row) => (row.origin === null ? [] : [row.origin])),
  }
}

/**
 * {@link find} behind a short in-process memo: every API request names its project, and a change to a
 * project's origins (a rare admin act) may take `ttlMs` to reach every process. Bounded, so a flood of
 * made-up ids cannot grow it without limit.
 * @example
 * const findProject = Projects.memo(db, 5_000)
 * await findProject('demo')
 */
export function memo(
  db: Pick<Database, 'query'>,
  ttlMs: number,
  now: () => number = Date.now,
  limit = 1_000,
): (id: string) => Promise<Project | undefined> {
  const entries = new Map<string, { at: number; project: Promise<Project | undefined> }>()
  return (id) => {
    const hit = entries.get(id)
    if (hit && now() - hit.at < ttlMs) return hit.project
    if (entries.size >= limit) entries.clear()
    const project = find(db, id)
    entries.set(id, { at: now(), project })
    // A failed lookup is not remembered.
    project.catch(() => entries.delete(id))
    return project
  }
}

/** True when `origin` may use the project. */
export function allows(project: Project, origin: string): boolean {
  return Origin.isAllowed(project.origins, origin)
}

/**
 * Creates the project if needed and adds origins to it.
 * @example
 * await Projects.add(db, 'shop', ['https://shop.example'])
 */
export async function add(db: Database, id: string, origins: readonly string[] = []): Promise<void> {
  if (!isId(id)) throw new Error(`Invalid project id "${id}": use 1-64 letters, digits, _ or -.`)
  const bad = origins.find((origin) => !isOriginPattern(origin))
  if (bad !== undefined)
    throw new Error(
      `Invalid origin "${bad}": use scheme://host[:port], with an optional *. subdomain or :* port.`,
    )
  await db.transaction(async (tx) => {
    await tx.query('insert into projects (id) values ($1) on conflict do nothing', [id])
    for (const origin of origins)
      await tx.query(
        'insert into project_origins (project_id, origin) values ($1, $2) on conflict do nothing',
        [id, origin.toLowerCase()],
      )
  })
}

/** Removes one origin from a project, or the whole project when no origin is given. */
export async function remove(db: Database, id: string, origin?: string): Promise<boolean> {
  const rows =
    origin === undefined
      ? await db.query('delete from projects where id = $1 returning id', [id])
      : await db.query('delete from project_origins where project_id = $1 and origin = $2 returning origin', [
          id,
          origin.toLowerCase(),
        ])
  return rows.length > 0
}

/** Turns analytics on or off for a project. */
export async function setAnalytics(db: Database, id: string, enabled: boolean): Promise<boolean> {
  const rows = await db.query('update projects set analytics_enabled = $2 where id = $1 returning id', [
    id,
    enabled,
  ])
  return rows.length > 0
}

/** Every project, by id. */
export async function list(db: Database): Promise<Project[]> {
  const ids = await db.query<{ id: string }>('select id from projects order by id')
  const projects = await Promise.all(ids.map((row) => find(db, row.id)))
  return projects.filter((project) => project !== undefined)
}

/**
 * The CSP `frame-ancestors` value for a project's origins; `'none'` when there are none, so an unknown
 * project's modal cannot be framed anywhere.
 * @example
 * Projects.frameAncestors(['http://localhost:*']) // "http://localhost:*"
 */
export function frameAncestors(origins: readonly string[] | undefined): string {
  const sources = (origins ?? []).filter(isOriginPattern)
  return sources.length > 0 ? sources.join(' ') : "'none'"
}
