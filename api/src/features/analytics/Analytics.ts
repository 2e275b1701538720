/**
 * Analytics events (`POST /e`), kept in the project's own database. Nothing is sent anywhere else; a
 * project has analytics off until its operator turns them on (`project analytics <id> on`).
 *
 * An event is answered as soon as it is taken into a bounded buffer in memory, and the buffer is written
 * in batches, one multi-row INSERT each. One statement per request is what a flood of writes cannot
 * afford: on PGlite every statement runs on the server's own event loop, and on PostgreSQL each takes a
 * pooled connection, so 200 connections of events queued behind each other past their clients' time-out
 * (21 of them unanswered in 10 s on PGlite). When the database cannot keep up, or is unreachable, the
 * buffer fills and further events are refused at once (`full`) instead of waiting in line.
 */
import type { Event } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'

/** The event body's shape lives in the contract, which the modal shares. */
export { type Event, event } from '../../contract/index.ts'

export type BufferOptions = {
  db: Pick<Database, 'query'>
  /** Events taken and not yet written, at most. @default 10_000 */
  capacity?: number
  /** Rows in one INSERT, at most (7 parameters each; PostgreSQL takes 65,535 in a statement). @default 500 */
  batch?: number
  /** How long the first event of a batch waits for others before it is written. @default 50 */
  delayMs?: number
  /**
   * Calls `write` after `ms`: a timer that keeps no process alive. Tests pass their own, to decide when
   * a batch is written. @default setTimeout, unref'd
   */
  schedule?: ((write: () => void, ms: number) => void) | undefined
}

/** Why an event was or was not taken. */
export type Taken = 'taken' | 'duplicate' | 'full'

export type Buffer = {
  /**
   * Takes an event to be written: `duplicate` when one with its `eventId` is already waiting (it is written
   * once), `full` when the buffer holds `capacity` events (nothing is taken).
   */
  add(projectId: string, origin: string, value: Event): Taken
  /** Whether {@link add} would answer `full` now: checked before a request's body is even read. */
  readonly full: boolean
  /** Writes every event taken so far; rejects when the database refused (the events stay, to be retried). */
  flush(): Promise<void>
}

type Row = { projectId: string; origin: string; value: Event }

/** A failed write is tried again after this long, the events kept (and counted against the capacity). */
const retryMs = 1_000

/**
 * @example
 * const events = Analytics.buffer({ db })
 * events.add('demo', 'https://shop.example', event) // 'taken'
 * await events.flush() // on shutdown
 */
export function buffer(options: BufferOptions): Buffer {
  const { db } = options
  const capacity = options.capacity ?? 10_000
  const batch = options.batch ?? 500
  const delayMs = options.delayMs ?? 50
  const schedule = options.schedule ?? ((write, ms) => setTimeout(write, ms).unref())
  // Waiting, by event id; and the batch being written, still counted and still a duplicate's original.
  let waiting = new Map<string, Row>()
  let writing = new Map<string, Row>()
  let under: Promise<void> | undefined
  let scheduled = false

  const drain = async () => {
    while (waiting.size > 0) {
      const rows = [...waiting.values()].slice(0, batch)
      writing = new Map(rows.map((row) => [row.value.eventId, row]))
      for (const id of writing.keys()) waiting.delete(id)
      try {
        await insert(db, rows)
      } catch (error) {
        // Put back first, so they are written before what came since.
        waiting = new Map([...writing, ...waiting])
        throw error
      } finally {
        writing = new Map()
      }
    }
  }
  const flush = (): Promise<void> => {
    under ??= drain().finally(() => {
      under = undefined
    })
    return under
  }
  const later = (ms: number) => {
    if (scheduled) return
    scheduled = true
    schedule(() => {
      scheduled = false
      flush().catch((error: Error) => {
        console.warn(`[airlock-api] ${waiting.size} analytics events not written yet:`, error.message)
        later(retryMs)
      })
    }, ms)
  }
  return {
    add(projectId, origin, value) {
      const id = value.eventId
      if (waiting.has(id) || writing.has(id)) return 'duplicate'
      if (waiting.size + writing.size >= capacity) return 'full'
      waiting.set(id, { projectId, origin, value })
      // A write under way takes what arrived meanwhile when it is done.
      if (!under) later(delayMs)
      return 'taken'
    },
    get full() {
      return waiting.size + writing.size >= capacity
    },
    flush,
  }
}

/**
 * One statement for the whole batch. A replayed `eventId` already stored is skipped; so is the event of a
 * project deleted since it was taken, which would otherwise fail the batch on its foreign key.
 */
async function insert(db: Pick<Database, 'query'>, rows: readonly Row[]): Promise<void> {
  const params: unknown[] = []
  const values = rows.map(({ projectId, origin, value }) => {
    const at = params.length
    params.push(
      value.eventId,
      projectId,
      origin,
      value.url,
      value.domain,
      Math.trunc(value.timestamp),
      JSON.stringify(value.props),
    )
    return `($${at + 1}::uuid, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}::bigint, $${at + 7}::jsonb)`
  })
  await db.query(
    `insert into events (event_id, project_id, origin, url, domain, timestamp, props)
     select v.* from (values ${values.join(', ')}) as v (event_id, project_id, origin, url, domain, timestamp, props)
     where exists (select 1 from projects p where p.id = v.project_id)
     on conflict (event_id) do nothing`,
    params,
  )
}
