#!/usr/bin/env -S npx tsx
/**
 * The service's command line.
 *
 *   serve    [--config airlock.config.json] [--modal-dir ../modal-app/dist] [--host 127.0.0.1]
 *            [--api-port 8787] [--modal-port 5174]
 *   project  add <id> [origin...] | remove <id> [origin] | list | analytics <id> on|off
 *   seed     registry
 *
 * The database is PostgreSQL when DATABASE_URL is set, else PGlite in AIRLOCK_DATA (./.airlock-data).
 */
import { parseArgs } from 'node:util'
import * as Config from './Config.ts'
import * as Database from './Database.ts'
import * as History from './features/history/index.ts'
import * as Projects from './features/projects/Projects.ts'
import * as Registry from './features/registry/Registry.ts'
import * as Service from './Service.ts'

const [command, ...rest] = process.argv.slice(2)

async function main(): Promise<number> {
  if (command === 'serve') return serve()
  const db = await Database.open({ dataDir: process.env.AIRLOCK_DATA })
  try {
    if (command === 'project') return await project(db, rest)
    if (command === 'seed' && rest[0] === 'registry') {
      console.log(`Seeded ${await Registry.seed(db)} wallets.`)
      return 0
    }
    return usage()
  } finally {
    await db.close()
  }
}

async function project(db: Database.Database, [action, id, ...args]: string[]): Promise<number> {
  if (action === 'list') {
    for (const p of await Projects.list(db))
      console.log(
        `${p.id}\tanalytics ${p.analyticsEnabled ? 'on' : 'off'}\t${p.origins.join(' ') || '(no origins)'}`,
      )
    return 0
  }
  if (!id) return usage()
  if (action === 'add') {
    await Projects.add(db, id, args)
    console.log(`Project ${id}: ${(await Projects.find(db, id))?.origins.join(' ') || '(no origins)'}`)
    return 0
  }
  if (action === 'remove') {
    const removed = await Projects.remove(db, id, args[0])
    console.log(removed ? `Removed ${args[0] ?? `project ${id}`}.` : 'Nothing to remove.')
    return removed ? 0 : 1
  }
  if (action === 'analytics' && (args[0] === 'on' || args[0] === 'off')) {
    const found = await Projects.setAnalytics(db, id, args[0] === 'on')
    console.log(found ? `Analytics ${args[0]} for ${id}.` : `No project ${id}.`)
    return found ? 0 : 1
  }
  return usage()
}

async function serve(): Promise<number> {
  const { values } = parseArgs({
    args: rest,
    options: {
      config: { type: 'string', default: process.env.AIRLOCK_CONFIG },
      'modal-dir': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-port': { type: 'string', default: '8787' },
      'modal-port': { type: 'string', default: '5174' },
    },
  })
  if (!values.config) {
    console.error('serve needs --config <file> (or AIRLOCK_CONFIG); see api/README.md.')
    return 2
  }
  const config = Config.read(values.config)
  const db = await Database.open({ dataDir: process.env.AIRLOCK_DATA })
  // Replicas on one PostgreSQL each start it: one per chain writes (an advisory lock), the others wait.
  const indexer = History.Indexer.start({ db, config })
  const running = await Service.listen(Service.create({ db, config, modalDir: values['modal-dir'] }), {
    host: values.host,
    apiPort: Number(values['api-port']),
    modalPort: Number(values['modal-port']),
  })
  console.log(
    `Airlock API on ${running.apiUrl}${running.modalUrl ? `, modal origin on ${running.modalUrl}` : ''} (${db.engine})`,
  )
  const stop = async () => {
    await running.stop()
    await indexer.stop()
    await db.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return new Promise<number>(() => {})
}

function usage(): number {
  console.error(
    'usage: airlock-api serve --config <file> [--modal-dir <dir>] | project add <id> [origin...] | project remove <id> [origin] | project list | project analytics <id> on|off | seed registry',
  )
  return 2
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  },
)
