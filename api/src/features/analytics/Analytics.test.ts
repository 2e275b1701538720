import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Row } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import * as Projects from '../projects/Projects.ts'
import * as Analytics from './Analytics.ts'

describe.each(databases())('the analytics buffer on $engine', ({ open }) => {
  let db: Database
  const origin = 'https://shop.example'
  const event = (): Analytics.Event => ({
    eventId: crypto.randomUUID(),
    url: `${origin}/`,
    domain: 'shop.example',
    timestamp: 1_764_000_000_000.5,
    props: { type: 'track', event: 'MODAL_OPEN' },
  })
  const stored = async (ids: readonly string[]) =>
    (
      await db.query<{ event_id: string; n: string }>(
        'select event_id, count(*) as n from events where event_id = any($1::uuid[]) group by event_id',
        [ids],
      )
    ).map(({ event_id, n }) => [event_id, Number(n)])

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'shop', [origin])
    await Projects.add(db, 'gone', [origin])
  })
  afterAll(() => db?.close())

  /** The database as the buffer sees it, counting the statements it runs. */
  const counted = () => {
    const statements: string[] = []
    return {
      statements,
      db: {
        query: <T extends Row>(sql: string, params?: readonly unknown[]) => {
          statements.push(sql)
          return db.query<T>(sql, params)
        },
      },
    }
  }

  it('writes every event taken exactly once, a batch in one statement', async () => {
    const { db: watched, statements } = counted()
    const events = Analytics.buffer({ db: watched, batch: 4, schedule: () => {} })
    const sent = Array.from({ length: 10 }, event)
    expect(sent.map((value) => events.add('shop', origin, value))).toEqual(Array(10).fill('taken'))
    // Replays while they wait are known for what they are.
    expect(events.add('shop', origin, sent[0] as Analytics.Event)).toBe('duplicate')
    expect(events.add('shop', origin, sent[9] as Analytics.Event)).toBe('duplicate')
    await events.flush()
    expect(statements).toHaveLength(3)
    const ids = sent.map((value) => value.eventId)
    expect(await stored(ids)).toEqual(expect.arrayContaining(ids.map((id) => [id, 1])))
    expect(await stored(ids)).toHaveLength(10)
    const [row] = await db.query(
      'select project_id, origin, url, domain, timestamp::text as timestamp, props from events where event_id = $1',
      [ids[0]],
    )
    expect(row).toEqual({
      project_id: 'shop',
      origin,
      url: `${origin}/`,
      domain: 'shop.example',
      timestamp: '1764000000000',
      props: { type: 'track', event: 'MODAL_OPEN' },
    })
    // Taken again after they were written: the database keeps the one it has.
    for (const value of sent.slice(0, 3)) expect(events.add('shop', origin, value)).toBe('taken')
    await events.flush()
    expect(await stored(ids)).toHaveLength(10)
    expect((await stored(ids)).every(([, n]) => n === 1)).toBe(true)
  })

  it('writes on its timer, and skips the events of a project deleted meanwhile', async () => {
    const timers: (() => void)[] = []
    const events = Analytics.buffer({ db, schedule: (write) => timers.push(write) })
    const kept = event()
    const dropped = event()
    expect(events.add('shop', origin, kept)).toBe('taken')
    expect(events.add('gone', origin, dropped)).toBe('taken')
    // One timer for the batch, whatever else arrives.
    expect(timers).toHaveLength(1)
    await db.query('delete from projects where id = $1', ['gone'])
    timers.shift()?.()
    await events.flush()
    expect(await stored([kept.eventId, dropped.eventId])).toEqual([[kept.eventId, 1]])
  })

  it('keeps what the database refused and counts it against the capacity, until a write succeeds', async () => {
    let refuse = true
    const timers: (() => void)[] = []
    const events = Analytics.buffer({
      db: {
        query: <T extends Row>(sql: string, params?: readonly unknown[]) =>
          refuse ? db.query<T>('select * from no_such_table') : db.query<T>(sql, params),
      },
      capacity: 2,
      schedule: (write) => timers.push(write),
    })
    const sent = [event(), event()]
    for (const value of sent) expect(events.add('shop', origin, value)).toBe('taken')
    await expect(events.flush()).rejects.toThrow(/no_such_table/)
    expect(events.full).toBe(true)
    expect(events.add('shop', origin, event())).toBe('full')
    refuse = false
    await events.flush()
    expect(events.full).toBe(false)
    expect(await stored(sent.map((value) => value.eventId))).toHaveLength(2)
  })
})
