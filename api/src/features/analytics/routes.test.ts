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
  let api: Service.App
  const time = Date.UTC(2026, 10, 22)
  const { json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.add(db, 'quiet', [shop])
    await Projects.setAnalytics(db, 'demo', true)
    api = Service.create({ db, config: configOf(), now: () => time }).api
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

    it('stores an event from the modal about an allowed host, once', async () => {
      const body = event()
      expect(await send(body, modalOrigin)).toEqual({ status: 202, body: { stored: true } })
      expect(await send(body, modalOrigin)).toEqual({ status: 202, body: { stored: false } })
      const rows = await db.query('select origin, props from events where event_id = $1', [body.eventId])
      expect(rows).toEqual([{ origin: 'http://localhost:5173', props: body.props }])
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
    })
  })
})
