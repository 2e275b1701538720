/**
 * The stack's API, run as a deployment runs it: its database seeded here first (the demo project, prices,
 * the registry), then the production build (`api/dist/server.js`) in a process of its own, on a
 * configuration file written for the run, with its history indexer beside it. The chains, the relay and the
 * rest of the stack stay in this process, so neither slows the other.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiProcess, Config, Database } from '@airlock/api'
import * as Reaper from './Reaper.ts'

export type ApiOptions = {
  /** PGlite's data folder (unless `DATABASE_URL` is set); `memory://` keeps nothing past the run. */
  dataDir: string
  /** The configuration, as its file has it (`Config.parse` checks it). */
  settings: Record<string, unknown>
  /** Fills the database before the API opens it. */
  seed(db: Database.Database): Promise<void>
  host?: string | undefined
  port: number
}

export type Api = { url: string; pid: number | undefined; stop(): Promise<void> }

/**
 * @example
 * const api = await Api.start({ dataDir: 'memory://', settings, seed: (db) => Projects.add(db, 'demo'), port: 8787 })
 */
export async function start(options: ApiOptions): Promise<Api> {
  // Checked here first: a wrong setting stops the stack with its reason before a process starts.
  Config.parse(options.settings)
  const run = mkdtempSync(join(tmpdir(), 'airlock-api-'))
  const removeRun = () => rmSync(run, { recursive: true, force: true })
  try {
    // Two processes never open one PGlite folder at once: this one seeds it, closes it, then the API opens it.
    const dataDir = options.dataDir.startsWith('memory://') ? join(run, 'data') : options.dataDir
    mkdirSync(dataDir, { recursive: true })
    const db = await Database.open({ dataDir })
    try {
      await options.seed(db)
    } finally {
      await db.close()
    }
    const config = join(run, 'airlock.config.json')
    // It holds the run's secrets (the email and wallet keys): for this user only.
    writeFileSync(config, JSON.stringify(options.settings), { mode: 0o600 })
    const api = await ApiProcess.spawn({
      config,
      env: { AIRLOCK_DATA: dataDir },
      host: options.host,
      port: options.port,
      track: Reaper.track,
    })
    return {
      url: api.url,
      pid: api.child.pid,
      stop: async () => {
        await api.stop()
        removeRun()
      },
    }
  } catch (error) {
    removeRun()
    throw error
  }
}
