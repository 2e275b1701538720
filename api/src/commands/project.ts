/** `airlock-api project add|remove|list|analytics`: projects and their allowed origins, in the database. */
import * as Projects from '../features/projects/Projects.ts'
import { type Args, UsageError, withDatabase } from './Args.ts'

export const usage =
  'project add <id> [origin...] | project remove <id> [origin] | project list | project analytics <id> on|off'

export function run(args: Args): Promise<number> {
  const [action, id, ...rest] = args.words.slice(1)
  if (!['add', 'remove', 'list', 'analytics'].includes(action ?? ''))
    throw new UsageError(`project ${action ?? ''}: not an action`)
  if (action !== 'list' && !id) throw new UsageError(`project ${action}: which project?`)
  return withDatabase(args, async (db) => {
    if (action === 'list') {
      for (const p of await Projects.list(db))
        console.log(
          `${p.id}\tanalytics ${p.analyticsEnabled ? 'on' : 'off'}\t${p.origins.join(' ') || '(no origins)'}`,
        )
      return 0
    }
    if (!id) return 2
    if (action === 'add') {
      await Projects.add(db, id, rest)
      console.log(`Project ${id}: ${(await Projects.find(db, id))?.origins.join(' ') || '(no origins)'}`)
      return 0
    }
    if (action === 'remove') {
      const removed = await Projects.remove(db, id, rest[0])
      console.log(removed ? `Removed ${rest[0] ?? `project ${id}`}.` : 'Nothing to remove.')
      return removed ? 0 : 1
    }
    if (action === 'analytics' && (rest[0] === 'on' || rest[0] === 'off')) {
      const found = await Projects.setAnalytics(db, id, rest[0] === 'on')
      console.log(found ? `Analytics ${rest[0]} for ${id}.` : `No project ${id}.`)
      return found ? 0 : 1
    }
    throw new UsageError('project analytics: on or off?')
  })
}
