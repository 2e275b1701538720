import * as S from '@airlock/bridge-protocol/Shape'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { calls, configOf, modalOrigin, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'

describe.each(databases())('analytics routes on $engine', ({ open }) => {
  let db: Database
  let service: Service.Service
  let api: Service.App
  const time = Date.UTC(2026, 10, 22)
  const { json } = calls(() => api)
  // Batches are written when a test flushes, never on a timer.
  const create = (capacity?: number) =>
    Service.create({ db, config: configOf(), now: () => time, analytics: { capacity, schedule: () => {} } })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.add(db, 'quiet', [shop])
    await Projects.setAnalytics(db, 'demo', true)
    service = create()
    api = service.api
  })
  afterAll(() => db?.close())

  describe('analytics', () => {
    const event = (overrides: Record<string, unknown> = {}) => ({
      eventId: crypto.randomUUID(),
      url: 'http://localhost:5173/shop',
      domain: 'localhost:5173',
      timestamp: time,
      props: { type: 'track', event: 'CONNECT_SUCCESS', properties: { method: 'browser' } },
      ...overrides,
    })
    const send = (body: unknown, origin?: string, projectId = 'demo') =>
      json(`/e?projectId=${projectId}&st=airlock&sv=0.1.0`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(origin ? { Origin: origin } : {}) },
        body: JSON.stringify(body),
      })

    it('tells whether analytics are on', async () => {
      expect((await json('/getAnalyticsConfig?projectId=demo')).body).toEqual({ isAnalyticsEnabled: true })
      expect((await json('/getAnalyticsConfig?projectId=quiet')).body).toEqual({ isAnalyticsEnabled: false })
    })

    const rowsOf = (eventId: string) =>
      db.query('select origin, props from events where event_id = $1', [eventId])

    it('stores an event from the modal about an allowed host, once', async () => {
      const body = event()
      expect(await send(body, modalOrigin)).toEqual({ status: 202, body: { stored: true } })
      expect(await send(body, modalOrigin)).toEqual({ status: 202, body: { stored: false } })
      // Answered before it is written: stored with the next batch.
      expect(await rowsOf(body.eventId)).toEqual([])
      await service.flush()
      expect(await rowsOf(body.eventId)).toEqual([{ origin: 'http://localhost:5173', props: body.props }])
      // A replay of one already written is taken, and the database keeps the first.
      expect(await send({ ...body, props: { type: 'track', event: 'MODAL_CLOSE' } }, modalOrigin)).toEqual({
        status: 202,
        body: { stored: true },
      })
      await service.flush()
      expect(await rowsOf(body.eventId)).toEqual([{ origin: 'http://localhost:5173', props: body.props }])
    })

    it('refuses 503 with Retry-After while the buffer is full, and takes events again once it is written', async () => {
      const full = create(3)
      const { get } = calls(() => full.api)
      const post = (body: unknown) =>
        get('/e?projectId=demo&st=airlock&sv=0.1.0', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: modalOrigin },
          body: JSON.stringify(body),
        })
      const taken = [event(), event(), event()]
      for (const body of taken) expect((await post(body)).status).toBe(202)
      const refused = await post(event())
      expect(refused.status).toBe(503)
      expect(refused.headers.get('Retry-After')).toBe('1')
      expect(await refused.json()).toEqual({
        message: 'Too many events waiting to be stored, try again later',
      })
      // Even a body that would not parse: the buffer is checked before the body is read.
      expect((await post([])).status).toBe(503)
      await full.flush()
      for (const body of taken) expect(await rowsOf(body.eventId)).toHaveLength(1)
      expect((await post(event())).status).toBe(202)
      await full.flush()
    })

    it('stores every event it answered before the server stops', async () => {
      const stopping = create()
      const running = await Service.listen(stopping, { apiPort: 0 })
      const sent = [event(), event(), event()]
      for (const body of sent) {
        const response = await fetch(`${running.apiUrl}/e?projectId=demo&st=airlock&sv=0.1.0`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: modalOrigin },
          body: JSON.stringify(body),
        })
        expect(response.status).toBe(202)
      }
      // No batch was written: the test's timer never fires.
      for (const body of sent) expect(await rowsOf(body.eventId)).toEqual([])
      await running.stop()
      for (const body of sent) expect(await rowsOf(body.eventId)).toHaveLength(1)
    })

    it('answers at once while the database is blocked, and stores everything once it is free', async () => {
      const warm = event()
      expect((await send(warm, modalOrigin)).status).toBe(202)
      await service.flush()
      // Another connection (PostgreSQL) or PGlite's one connection holds the table until released.
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      let locked = () => {}
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve
      })
      const holder = db.transaction(async (tx) => {
        await tx.query('lock table events in access exclusive mode')
        locked()
        await held
      })
      await isLocked
      const first = [event(), event()]
      for (const body of first)
        expect(await send(body, modalOrigin)).toEqual({ status: 202, body: { stored: true } })
      let written = false
      const writing = service.flush().then(() => {
        written = true
      })
      // The batch's INSERT now waits on the lock; events keep being answered meanwhile.
      const more = [event(), event(), event()]
      for (const body of more)
        expect(await send(body, modalOrigin)).toEqual({ status: 202, body: { stored: true } })
      expect(written).toBe(false)
      release()
      await holder
      await writing
      await service.flush()
      for (const body of [...first, ...more]) expect(await rowsOf(body.eventId)).toHaveLength(1)
    })

    it("refuses 403 'Invalid App Configuration' for an origin not on the list", async () => {
      const forbidden = { status: 403, body: { message: 'Invalid App Configuration' } }
      expect(await send(event({ url: 'https://evil.example/' }), modalOrigin)).toEqual(forbidden)
      expect(await send(event(), 'https://evil.example')).toEqual(forbidden)
      expect(await send(event({ url: 'https://evil.example/' }))).toEqual(forbidden)
    })

    it('stores nothing for a project with analytics off', async () => {
      const body = event({ url: `${shop}/` })
      expect(await send(body, shop, 'quiet')).toEqual({ status: 202, body: { stored: false } })
      expect(await db.query('select 1 from events where event_id = $1', [body.eventId])).toEqual([])
    })

    it('refuses malformed events', async () => {
      for (const body of [
        event({ eventId: 'x' }),
        event({ url: 'javascript:alert(1)' }),
        event({ timestamp: 'now' }),
        event({ props: { blob: 'x'.repeat(9000) } }),
        [],
      ]) {
        expect((await send(body, modalOrigin)).status).toBe(400)
      }
    })

    it('answers in the shapes of the contract the modal parses with', async () => {
      const config = await json('/getAnalyticsConfig?projectId=demo')
      expect(S.parse(Contract.analyticsAnswer, config.body)).toEqual({ ok: true, value: config.body })
      const body = event()
      expect(S.parse(Contract.event, body)).toEqual({ ok: true, value: body })
      const stored = await send(body, modalOrigin)
      expect(S.parse(Contract.eventAnswer, stored.body)).toEqual({ ok: true, value: stored.body })
      await service.flush()
    })
  })
})
