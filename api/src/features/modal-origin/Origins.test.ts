import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type * as Database from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import { configOf } from '../../internal/testApi.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Origins from './Origins.ts'

const demo = { kind: 'known', origins: ['http://localhost:*'] }

let db: Database.Database
let api: Service.Running
let apiTime = Date.UTC(2026, 10, 25)
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  await Projects.add(db, 'shop', ['https://shop.example'])
  api = await Service.listen(Service.create({ db, config: configOf(), now: () => apiTime }), { apiPort: 0 })
})
afterAll(async () => {
  await api?.stop()
  await db?.close()
})
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  return () => vi.restoreAllMocks()
})

/** `fromApi` with a clock the test moves and a count of the API calls it makes. */
function counted(apiUrl: string, options: Origins.FromApiOptions = {}) {
  const clock = { time: 0, calls: [] as string[] }
  const origins = Origins.fromApi(apiUrl, {
    now: () => clock.time,
    fetch: (input, init) => {
      clock.calls.push(String(input))
      return fetch(input, init)
    },
    ...options,
  })
  return { origins, clock }
}

describe('the origins of a project, from the API', () => {
  it("answers a project's origins, and that an unknown one is not configured", async () => {
    const origins = Origins.fromApi(`${api.apiUrl}/`)
    expect(await origins('demo')).toEqual(demo)
    expect(await origins('nobody')).toEqual({ kind: 'unknown' })
  })

  it('asks the API once for pages that come together, and not again for 30 s', async () => {
    const { origins, clock } = counted(api.apiUrl)
    expect(await Promise.all([origins('demo'), origins('demo'), origins('nobody')])).toEqual([
      demo,
      demo,
      { kind: 'unknown' },
    ])
    expect(clock.calls).toEqual([
      `${api.apiUrl}/projects/v1/origins?projectId=demo`,
      `${api.apiUrl}/projects/v1/origins?projectId=nobody`,
    ])
    clock.time = 29_999
    await origins('demo')
    await origins('nobody')
    expect(clock.calls).toHaveLength(2)
  })

  it('answers at once from what it knows once that is old, and asks the API for news meanwhile', async () => {
    const { origins, clock } = counted(api.apiUrl)
    await origins('shop')
    await Projects.add(db, 'shop', ['https://new.shop.example'])
    // Past the API's own memo of the project.
    apiTime += 5_000
    clock.time = 30_000
    const answer = origins('shop')
    expect(clock.calls).toHaveLength(2)
    expect(await answer).toEqual({ kind: 'known', origins: ['https://shop.example'] })
    await vi.waitFor(async () =>
      expect(await origins('shop')).toEqual({
        kind: 'known',
        origins: ['https://new.shop.example', 'https://shop.example'],
      }),
    )
    expect(clock.calls).toHaveLength(2)
  })

  it('keeps what it knows while the API is down, for five minutes at most', async () => {
    const down = await closedPort()
    let target = api.apiUrl
    const clock = { time: 0 }
    const origins = Origins.fromApi('http://api', {
      now: () => clock.time,
      fetch: (input, init) => fetch(String(input).replace('http://api', target), init),
    })
    expect(await origins('demo')).toEqual(demo)
    target = `http://127.0.0.1:${down}`
    clock.time = 30_000
    expect(await origins('demo')).toEqual(demo)
    clock.time = 330_000
    expect(await origins('demo')).toEqual({ kind: 'unreachable' })
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining(`could not ask http://api/`))
  })

  it('leaves a dead API alone for 5 s after it failed', async () => {
    const { origins, clock } = counted(`http://127.0.0.1:${await closedPort()}`)
    expect(await origins('demo')).toEqual({ kind: 'unreachable' })
    clock.time = 4_999
    expect(await origins('demo')).toEqual({ kind: 'unreachable' })
    expect(clock.calls).toHaveLength(1)
    clock.time = 5_000
    await origins('demo')
    expect(clock.calls).toHaveLength(2)
  })

  it('remembers a bounded number of projects, dropping the one asked for longest ago', async () => {
    const { origins, clock } = counted(api.apiUrl, { limit: 2 })
    for (const id of ['a', 'b', 'a', 'c']) await origins(id)
    expect(clock.calls).toHaveLength(3)
    await origins('a')
    expect(clock.calls).toHaveLength(3)
    await origins('b')
    expect(clock.calls).toHaveLength(4)
  })

  describe('an API that does not answer as the API does', () => {
    let server: Server
    let url: string
    beforeAll(async () => {
      server = createServer((request, response) => {
        if (request.url?.includes('projectId=proxy'))
          response.writeHead(403, { 'Content-Type': 'application/json' }).end('{"message":"Forbidden"}')
        else if (request.url?.includes('projectId=odd')) response.end('{"allowedOrigins":"all"}')
        // Any other request is held: a flooded API.
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    afterAll(() => {
      server.closeAllConnections()
      server.close()
    })

    it('is unreachable, not a refusal of the project', async () => {
      // The API holds the question forever: only the time-out answers it.
      const origins = Origins.fromApi(url, { timeoutMs: 200 })
      expect(await origins('held')).toEqual({ kind: 'unreachable' })
      expect(await origins('proxy')).toEqual({ kind: 'unreachable' })
      expect(await origins('odd')).toEqual({ kind: 'unreachable' })
    })

    it('asks no more than so many questions at once, so a flood of made-up ids does not reach the API', async () => {
      const { origins, clock } = counted(url, { maxPending: 2, timeoutMs: 500 })
      const held = [origins('held-1'), origins('held-2')]
      expect(await origins('held-3')).toEqual({ kind: 'unreachable' })
      expect(clock.calls).toHaveLength(2)
      await Promise.all(held)
      await origins('held-3')
      expect(clock.calls).toHaveLength(3)
    })
  })
})

describe('the origins of a project, from the database', () => {
  it("answers a project's origins, and that an unknown one is not configured", async () => {
    const origins = Origins.fromDatabase(db)
    expect(await origins('demo')).toEqual(demo)
    expect(await origins('nobody')).toEqual({ kind: 'unknown' })
  })
})
