import { type Database, Identity, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { closedPort } from '@airlock/api/testing'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Api from './Api.ts'

// The real service, in this process, on a free loopback port.
let db: Database.Database
let service: Service.Service
let running: Service.Running
let dead: string
beforeAll(async () => {
  dead = `http://127.0.0.1:${await closedPort()}`
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  service = Service.create({
    db,
    config: {
      apiUrl: 'http://127.0.0.1:0',
      modalOrigin: 'http://127.0.0.1:5174',
      chains: [{ id: 'eip155:999', name: 'Dead', rpcUrl: dead, nativeCurrency: ether }],
    },
  })
  running = await Service.listen(service, { apiPort: 0 })
})
afterAll(async () => {
  await running?.stop()
  await db?.close()
})

const client = (projectId = 'demo', fetch?: typeof globalThis.fetch) =>
  Api.create({ baseUrl: running.apiUrl, projectId, fetch })

describe('API client', () => {
  it("reads the project's allowed origins", async () => {
    expect(await client().origins()).toEqual({ allowed: ['http://localhost:*'] })
  })

  it('tells an unknown project from an API that is down', async () => {
    expect(await client('nope').origins()).toEqual({ refused: 'project' })
    const down = Api.create({ baseUrl: dead, projectId: 'demo' })
    expect(await down.origins()).toEqual({ refused: 'unreachable' })
  })

  it('sends projectId, st and sv with every call', async () => {
    const urls: string[] = []
    const spy: typeof fetch = (input, init) => {
      urls.push(String(input))
      return fetch(input, init)
    }
    await client('demo', spy).origins()
    expect(new URL(urls[0] ?? '').searchParams.toString()).toBe('projectId=demo&st=airlock&sv=0.1.0')
  })

  it('does not ask for balances on a chain the API does not support', async () => {
    const urls: string[] = []
    const spy: typeof fetch = (input, init) => {
      urls.push(new URL(String(input)).pathname)
      return fetch(input, init)
    }
    await expect(
      client('demo', spy).balances('eip155:1', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'),
    ).rejects.toBeInstanceOf(Api.UnsupportedNetworkError)
    expect(urls).toEqual(['/v1/supported-chains'])
  })

  it('names the API’s chains, without their RPC, from the same answer the balances check', async () => {
    const urls: string[] = []
    const spy: typeof fetch = (input, init) => {
      urls.push(new URL(String(input)).pathname)
      return fetch(input, init)
    }
    const api = client('demo', spy)
    expect(await api.supportedChains()).toEqual([
      { id: 'eip155:999', name: 'Dead', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
    ])
    await expect(
      api.balances('eip155:1', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'),
    ).rejects.toBeInstanceOf(Api.UnsupportedNetworkError)
    expect(urls).toEqual(['/v1/supported-chains'])
  })

  it('names no chain for an API that answers only http and ws, and refuses a malformed entry', async () => {
    const older: typeof fetch = async () => Response.json({ http: ['eip155:999'], ws: [] })
    expect(await client('demo', older).supportedChains()).toEqual([])
    const bad: typeof fetch = async () =>
      Response.json({ http: [], ws: [], chains: [{ id: 'ethereum', name: 'X', nativeCurrency: {} }] })
    await expect(client('demo', bad).supportedChains()).rejects.toThrow(/Unexpected answer/)
  })

  it("fails with the API's status when the chain RPC is dead", async () => {
    await expect(
      client().balances('eip155:999', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'),
    ).rejects.toThrow('HTTP status code: 502')
  })

  it('refuses an answer of the wrong shape', async () => {
    const liar: typeof fetch = async (input) =>
      new URL(String(input)).pathname === '/v1/supported-chains'
        ? Response.json({ http: ['eip155:999'], ws: [] })
        : Response.json({ balances: [{ name: 'X', symbol: 'X', value: 'lots' }] })
    await expect(
      client('demo', liar).balances('eip155:999', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'),
    ).rejects.toThrow(/Unexpected answer/)
  })

  it('reads the name and avatar of an address, null where it has none', async () => {
    const named = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    await Identity.set(db, named, { name: 'carol.airlock', avatar: 'https://avatars.example/carol.png' })
    expect(await client().identity(named)).toEqual({
      name: 'carol.airlock',
      avatar: 'https://avatars.example/carol.png',
    })
    expect(await client().identity('0x90F79bf6EB2c4f870365E785982E1f101E93b906')).toEqual({
      name: null,
      avatar: null,
    })
  })

  it("fails with the API's status for an address it has no identities for, and on a wrong answer", async () => {
    await expect(client().identity('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')).rejects.toThrow(
      'HTTP status code: 400',
    )
    const liar: typeof fetch = async () => Response.json({ name: 42, avatar: null })
    await expect(client('demo', liar).identity('0x90F79bf6EB2c4f870365E785982E1f101E93b906')).rejects.toThrow(
      /Unexpected answer from \/v1\/identity\//,
    )
  })

  it('reads the API URL from the page, and falls back for anything that is not an origin', () => {
    const page = (content: string | null) =>
      ({
        querySelector: () => (content === null ? null : { getAttribute: () => content }),
      }) as unknown as Document
    expect(Api.baseUrlOf(page('https://api.example'))).toBe('https://api.example')
    for (const bad of [null, '', 'javascript:alert(1)', 'https://api.example/path', '%AIRLOCK%'])
      expect(Api.baseUrlOf(page(bad))).toBe(Api.defaultBaseUrl)
  })
})

describe('analytics, from the modal’s client to the API’s database', () => {
  beforeAll(async () => {
    await Projects.add(db, 'tracked', ['http://localhost:*'])
    await Projects.setAnalytics(db, 'tracked', true)
    await Projects.add(db, 'quiet', ['http://localhost:*'])
  })
  // The API answers before it stores, in batches: what it answered is written by a flush.
  const eventsOf = async (projectId: string) => {
    await service.flush()
    return db.query<{
      origin: string
      url: string
      domain: string
      timestamp: number | string
      props: unknown
    }>('select origin, url, domain, timestamp, props from events where project_id = $1', [projectId])
  }
  /** The client with a fetch that records the paths it asked for. */
  const recorded = (projectId: string) => {
    const paths: string[] = []
    const spy: typeof fetch = (input, init) => {
      paths.push(new URL(String(input)).pathname)
      return fetch(input, init)
    }
    return { api: client(projectId, spy), paths }
  }

  it('stores the event, for the page’s origin only, with its properties and the address', async () => {
    const { api } = recorded('tracked')
    const before = Date.now()
    await api.track(
      {
        event: 'CONNECT_SUCCESS',
        properties: { method: 'browser' },
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      },
      'http://localhost:5173/checkout?cart=secret#top',
    )
    const rows = await eventsOf('tracked')
    expect(rows).toEqual([
      {
        origin: 'http://localhost:5173',
        url: 'http://localhost:5173',
        domain: 'localhost:5173',
        timestamp: expect.anything(),
        props: {
          type: 'track',
          event: 'CONNECT_SUCCESS',
          properties: { method: 'browser' },
          address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        },
      },
    ])
    expect(Number(rows[0]?.timestamp)).toBeGreaterThanOrEqual(before)
    expect(Number(rows[0]?.timestamp)).toBeLessThanOrEqual(Date.now())
  })

  it('asks the API once whether analytics are on, then only posts', async () => {
    const { api, paths } = recorded('tracked')
    await api.track({ event: 'A' }, 'http://localhost:5173')
    await api.track({ event: 'B' }, 'http://localhost:5173')
    expect(paths).toEqual(['/getAnalyticsConfig', '/e', '/e'])
  })

  it('sends nothing, and nothing is stored, for a project with analytics off', async () => {
    const { api, paths } = recorded('quiet')
    await api.track({ event: 'CONNECT_SUCCESS' }, 'http://localhost:5173')
    expect(paths).toEqual(['/getAnalyticsConfig'])
    expect(await eventsOf('quiet')).toEqual([])
  })

  it('never throws: not for a page the project refuses, nor for an API that is down', async () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await expect(client('tracked').track({ event: 'X' }, 'https://evil.example')).resolves.toBeUndefined()
    const down = Api.create({ baseUrl: dead, projectId: 'tracked', retry: { sleep: async () => {} } })
    await expect(down.track({ event: 'X' }, 'http://localhost:5173')).resolves.toBeUndefined()
    expect((await eventsOf('tracked')).map((row) => (row.props as { event: string }).event).sort()).toEqual([
      'A',
      'B',
      'CONNECT_SUCCESS',
    ])
    warnings.mockRestore()
  })
})
