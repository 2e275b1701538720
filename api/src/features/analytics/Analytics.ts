/**
 * Analytics events (`POST /e`), kept in the project's own database. Nothing is sent anywhere else; a
 * project has analytics off until its operator turns them on (`project analytics <id> on`).
 */
import type { Event } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'

/** The event body's shape lives in the contract, which the modal shares. */
export { type Event, event } from '../../contract/index.ts'

/**
 * Stores an event once: a replay of the same `eventId` is ignored.
 * @returns whether the event was new
 */
export async function record(
  db: Pick<Database, 'query'>,
  projectId: string,
  origin: string,
  value: Event,
): Promise<boolean> {
  const rows = await db.query(
    `insert into events (event_id, project_id, origin, url, domain, timestamp, props)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict (event_id) do nothing returning event_id`,
    [
      value.eventId,
      projectId,
      origin,
      value.url,
      value.domain,
      Math.trunc(value.timestamp),
      JSON.stringify(value.props),
    ],
  )
  return rows.length > 0
}
