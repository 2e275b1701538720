import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { calls, configOf } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Identity from './Identity.ts'
import { identityTtlMs } from './routes.ts'

const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe.each(databases())('identity on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let time = Date.UTC(2026, 10, 22)
  const { json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*'])
    api = Service.create({ db, config: configOf(), now: () => time }).api
  })
  afterAll(() => db?.close())

  describe('GET /v1/identity/{address}', () => {
    it('answers name and avatar, null when unknown, and caches 5 min', async () => {
      const address = '0x2000000000000000000000000000000000000002'
      const identity = () => json(`/v1/identity/${address}?projectId=demo&sender=${holder}`)
      expect(await identity()).toEqual({ status: 200, body: { name: null, avatar: null } })
      await Identity.set(db, address, { name: 'alice.airlock', avatar: 'https://example.com/a.png' })
      expect((await identity()).body.name).toBeNull()
      time += identityTtlMs + 1
      expect((await identity()).body).toEqual({ name: 'alice.airlock', avatar: 'https://example.com/a.png' })
    })

    it('reads afresh with forceUpdate=true (a name was just registered), and caches that answer', async () => {
      const address = '0x3000000000000000000000000000000000000003'
      const identity = (query = '') => json(`/v1/identity/${address}?projectId=demo${query}`)
      expect((await identity()).body.name).toBeNull()
      await Identity.set(db, address, { name: 'newcomer.airlock.id', avatar: null })
      expect((await identity()).body.name).toBeNull()
      expect((await identity('&forceUpdate=true')).body.name).toBe('newcomer.airlock.id')
      expect((await identity()).body.name).toBe('newcomer.airlock.id')
      expect((await identity('&forceUpdate=yes')).status).toBe(400)
    })

    it('refuses invalid addresses', async () => {
      expect((await json('/v1/identity/alice?projectId=demo')).status).toBe(400)
      expect((await json(`/v1/identity/${holder}?projectId=demo&sender=bob`)).status).toBe(400)
    })
  })
})
