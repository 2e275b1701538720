/**
 * The API's production build, `node api/dist/server.js`, in a child process as a deployment runs it: the dev
 * stack runs its API so, apart from its chains, and `npm run bench` floods it so. `npm run build` makes it.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as Child from './internal/child.ts'

export type SpawnOptions = Pick<Child.SpawnOptions, 'track' | 'timeoutMs'> & {
  /** The configuration file (`--config`). */
  config: string
  /**
   * Environment variables over this process's, an `undefined` one removed: `AIRLOCK_DATA` (PGlite's folder)
   * or `DATABASE_URL` (PostgreSQL).
   */
  env?: Record<string, string | undefined> | undefined
  /** @default '127.0.0.1' */
  host?: string | undefined
  /** 0 picks a free port. @default 8787 */
  port?: number | undefined
  /** More of `serve`'s flags. */
  args?: string[] | undefined
}

export const server = fileURLToPath(new URL('../dist/server.js', import.meta.url))

/**
 * @example
 * const api = await Spawn.spawn({ config: 'airlock.config.json', env: { AIRLOCK_DATA: dir }, port: 0 })
 * await fetch(`${api.url}/health`)
 * await api.stop()
 */
export function spawn(options: SpawnOptions): Promise<Child.Spawned> {
  if (!existsSync(server)) return Promise.reject(new Error(`${server} is missing: run npm run build first.`))
  const env = { ...process.env, ...options.env }
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name]
  return Child.spawn({
    name: 'The API',
    args: [
      server,
      '--config',
      options.config,
      '--api-port',
      String(options.port ?? 8787),
      ...(options.host ? ['--host', options.host] : []),
      ...(options.args ?? []),
    ],
    env,
    track: options.track,
    timeoutMs: options.timeoutMs,
  })
}
