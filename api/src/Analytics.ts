/**
 * Analytics events (`POST /e`), kept in the project's own database. Nothing is sent anywhere else; a
 * project has analytics off until its operator turns them on (`project analytics <id> on`).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import type { Database } from './Database.ts'

const httpUrl = S.string(2048, 1, /^https?:\/\/\S+$/)

/** SPEC §7's event body. `props` is the event's data (plus the address when connected). */
export const event = S.object({
  eventId: S.string(36, 36, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  url: httpUrl,
  domain: S.string(253, 1, /^[a-z0-9.-]+(:\d{1,5})?$/i),
  timestamp: S.number(0, 8.64e15),
  props: S.check(
    S.record(S.unknown, 32),
    (props) => JSON.stringify(props).length <= 8192,
    'props: expected at most 8192 bytes of JSON',
  ),
})
export type Event = S.Infer<typeof event>

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
