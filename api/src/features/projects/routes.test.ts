import * as S from '@airlock/bridge-protocol/Shape'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { projectTtlMs } from '../../http/project.ts'
import { calls, configOf, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from './Projects.ts'

describe.each(databases())('project routes on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let time = Date.UTC(2026, 10, 22)
  const { json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.add(db, 'quiet', [shop])
    api = Service.create({ db, config: configOf(), now: () => time }).api
  })
  afterAll(() => db?.close())

  describe('GET /projects/v1/origins', () => {
    it("answers the project's origin patterns", async () => {
      expect(await json('/projects/v1/origins?projectId=demo')).toEqual({
        status: 200,
        body: { allowedOrigins: ['http://localhost:*', shop] },
      })
    })

    it('sees an admin change within 5 s', async () => {
      expect((await json('/projects/v1/origins?projectId=late')).status).toBe(403)
      await Projects.add(db, 'late', ['https://late.example'])
      expect((await json('/projects/v1/origins?projectId=late')).status).toBe(403)
      time += projectTtlMs
      expect((await json('/projects/v1/origins?projectId=late')).body).toEqual({
        allowedOrigins: ['https://late.example'],
      })
      await Projects.remove(db, 'late')
      time += projectTtlMs
      expect((await json('/projects/v1/origins?projectId=late')).status).toBe(403)
    })
  })

  it('answers in the shape of the contract the modal parses with', async () => {
    const { body } = await json('/projects/v1/origins?projectId=demo')
    expect(S.parse(Contract.originsAnswer, body)).toEqual({ ok: true, value: body })
  })
})
