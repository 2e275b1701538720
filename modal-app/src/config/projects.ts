/**
 * Which host origins may use which project. The modal reads this table before it answers a handshake; a
 * later issue replaces it with the API's `/projects/v1/origins`. Patterns are those of `Origin.matches`.
 */
import * as S from '@airlock/bridge-protocol/Shape'

export type Projects = Readonly<Record<string, readonly string[]>>

/** Projects every build knows. `demo` is the project of the example dApp and the e2e journeys. */
export const builtIn: Projects = { demo: ['http://localhost:*'] }

const table = S.record(S.array(S.string(256), 64), 1000)

/**
 * The built-in table extended by `VITE_AIRLOCK_PROJECTS` (JSON). A malformed extension is ignored with a
 * console error rather than taking the built-in projects down with it.
 * @example
 * Projects.load('{"shop":["https://shop.example"]}') // { demo: [...], shop: ['https://shop.example'] }
 */
export function load(extension: string | undefined = import.meta.env.VITE_AIRLOCK_PROJECTS): Projects {
  if (!extension) return builtIn
  let json: unknown
  try {
    json = JSON.parse(extension)
  } catch {
    console.error('[airlock] VITE_AIRLOCK_PROJECTS is not valid JSON; using the built-in projects only.')
    return builtIn
  }
  const parsed = S.parse(table, json)
  if (!parsed.ok) {
    console.error('[airlock] VITE_AIRLOCK_PROJECTS must map project ids to arrays of origin patterns.')
    return builtIn
  }
  return { ...builtIn, ...parsed.value }
}

/** The origin patterns of a project, or `undefined` when the project is not configured. */
export function allowedOrigins(projects: Projects, projectId: string): readonly string[] | undefined {
  return Object.hasOwn(projects, projectId) ? projects[projectId] : undefined
}
