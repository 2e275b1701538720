// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.

import { createTestClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Accounts, Devnet, testTokenAddress } from '../../../devnet/src/index.ts'
import type * as Config from '../Config.ts'
import type { Database } from '../Database.ts'
import * as Identity from '../Identity.ts'
import { closedPort } from '../internal/closedPort.ts'
import { databases } from '../internal/testing.ts'
import * as Prices from '../Prices.ts'
import * as Projects from '../Projects.ts'
import * as Registry from '../Registry.ts'
import * as Service from '../Service.ts'
import { balanceTtlMs, identityTtlMs, messages, projectTtlMs } from './Api.ts'

// Ports of their own, so the suite runs beside `npm start` and the devnet's tests.
let devnet: Devnet.Instance
let deadRpc: string
beforeAll(async () => {
  devnet = await Devnet.start({ ports: [18745, 18746] })
  deadRpc = `http://127.0.0.1:${await closedPort()}`
})
afterAll(() => devnet?.stop())

const modalOrigin = 'http://127.0.0.1:5174'
const shop = 'https://shop.example'
const holder = Accounts.all()[1]?.address as `0x${string}`

function configOf(): Config.Config {
  const [a, b] = devnet.chains
  const token = { address: testTokenAddress, name: 'Airlock Test Token', symbol: 'ALT', decimals: 18 }
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  return {
    apiUrl: 'http://127.0.0.1:8787',
    modalOrigin,
    chains: [
      {
        id: a.caipNetworkId,
        name: 'A',
        rpcUrl: a.rpcUrl,
        wsUrl: a.rpcUrl.replace('http', 'ws'),
        nativeCurrency: ether,
        tokens: [token],
      },
      // The same contract listed again with decimals 0: SPEC §5 drops such balances as low quality.
      {
        id: b.caipNetworkId,
        name: 'B',
        rpcUrl: b.rpcUrl,
        nativeCurrency: ether,
        tokens: [token, { ...token, symbol: 'ALT0', decimals: 0 }],
      },
      { id: 'eip155:999', name: 'Dead', rpcUrl: deadRpc, nativeCurrency: ether },
      {
        id: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
        name: 'Solana Devnet',
        rpcUrl: 'http://127.0.0.1:8899',
        nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      },
    ],
  }
}

describe.each(databases())('API on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let time = Date.UTC(2026, 10, 22)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.add(db, 'quiet', [shop])
    await Projects.setAnalytics(db, 'demo', true)
    await Registry.seed(db)
    await Prices.set(db, [
      {
        chainId: 'eip155:31337',
        address: Prices.native,
        currency: 'usd',
        price: 3000,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: null,
      },
      {
        chainId: 'eip155:31337',
        address: testTokenAddress,
        currency: 'usd',
        price: 0.5,
        name: 'Airlock Test Token',
        symbol: 'ALT',
        iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
      },
      {
        chainId: 'eip155:31337',
        address: Prices.native,
        currency: 'eur',
        price: 2800,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: null,
      },
    ])
    api = Service.create({ db, config: configOf(), now: () => time }).api
  })
  afterAll(() => db?.close())

  const get = (path: string, init?: RequestInit) => api.request(path, init)
  const json = async (path: string, init?: RequestInit) => {
    const response = await get(path, init)
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown> & { message?: string },
    }
  }

  describe('every route', () => {
    const routes = [
      '/v1/supported-chains',
      `/v1/account/${holder}/balance?chainId=eip155:31337`,
      `/v1/identity/${holder}`,
      '/projects/v1/origins',
      '/getWallets',
      '/getAnalyticsConfig',
      '/getWalletImage/abc',
      '/public/getTokenImage/abc',
    ]
    it.each(routes)('refuses %s without a configured project', async (route) => {
      const join = route.includes('?') ? '&' : '?'
      const unknown = await json(`${route}${join}projectId=nope`)
      expect(unknown).toEqual({ status: 403, body: { message: messages.projectNotConfigured } })
      for (const suffix of ['', `${join}projectId=`, `${join}projectId=${'x'.repeat(65)}`]) {
        const { status, body } = await json(route + suffix)
        expect(status, suffix).toBe(400)
        expect(body.message, suffix).toMatch(/^projectId: expected/)
      }
    })

    it('refuses POST /e without a configured project', async () => {
      const post = (query: string) =>
        json(`/e${query}`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } })
      expect(await post('?projectId=nope')).toEqual({
        status: 403,
        body: { message: messages.projectNotConfigured },
      })
      expect((await post('')).status).toBe(400)
    })

    it('answers unknown paths with a JSON 404', async () => {
      expect(await json('/v2/nothing?projectId=demo')).toEqual({
        status: 404,
        body: { message: 'Not found' },
      })
    })

    it('accepts st and sv, and refuses oversized ones', async () => {
      expect((await get('/v1/supported-chains?projectId=demo&st=airlock&sv=0.1.0')).status).toBe(200)
      expect((await get(`/v1/supported-chains?projectId=demo&st=${'a'.repeat(65)}`)).status).toBe(400)
    })
  })

  describe('CORS', () => {
    const preflight = (origin: string, projectId = 'demo') =>
      get(`/v1/supported-chains?projectId=${projectId}`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      })

    it('answers the modal origin and the project origins', async () => {
      for (const origin of [modalOrigin, shop, 'http://localhost:5173']) {
        const response = await get('/v1/supported-chains?projectId=demo', { headers: { Origin: origin } })
        expect(response.headers.get('Access-Control-Allow-Origin'), origin).toBe(origin)
        expect((await preflight(origin)).headers.get('Access-Control-Allow-Origin')).toBe(origin)
      }
    })

    it('does not answer other origins, or another project origins', async () => {
      for (const [origin, project] of [
        ['https://evil.example', 'demo'],
        ['http://localhost:5173', 'quiet'],
        ['https://shop.example.evil.example', 'demo'],
      ] as const) {
        const response = await get(`/v1/supported-chains?projectId=${project}`, {
          headers: { Origin: origin },
        })
        expect(response.headers.get('Access-Control-Allow-Origin'), origin).toBeNull()
        expect((await preflight(origin, project)).headers.get('Access-Control-Allow-Origin')).toBeNull()
      }
    })
  })

  it('lists the configured chains, ws where a WebSocket URL is configured', async () => {
    expect(await json('/v1/supported-chains?projectId=demo')).toEqual({
      status: 200,
      body: {
        http: ['eip155:31337', 'eip155:31338', 'eip155:999', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
        ws: ['eip155:31337'],
      },
    })
  })

  describe('GET /v1/account/{address}/balance', () => {
    const balance = (address: string, query = 'chainId=eip155:31337') =>
      json(`/v1/account/${address}/balance?projectId=demo&${query}`)

    it('reads native and ERC-20 balances from the chain, priced', async () => {
      const { status, body } = await balance(holder)
      expect(status).toBe(200)
      expect(body.balances).toEqual([
        {
          name: 'Ether',
          symbol: 'ETH',
          chainId: 'eip155:31337',
          value: 30_000_000,
          price: 3000,
          quantity: { decimals: '18', numeric: '10000' },
          iconUrl: '',
        },
        {
          name: 'Airlock Test Token',
          symbol: 'ALT',
          chainId: 'eip155:31337',
          address: `eip155:31337:${testTokenAddress}`,
          value: 500_000,
          price: 0.5,
          quantity: { decimals: '18', numeric: '1000000' },
          iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
        },
      ])
    })

    it('prices in the asked currency, and unpriced assets at 0', async () => {
      const { body } = await balance(holder, 'chainId=eip155:31337&currency=eur')
      const [eth, alt] = body.balances as { price: number; value: number }[]
      expect(eth).toMatchObject({ price: 2800, value: 28_000_000 })
      expect(alt).toMatchObject({ price: 0, value: 0 })
      const other = await balance(holder, 'chainId=eip155:31338')
      expect((other.body.balances as { price: number }[]).map((entry) => entry.price)).toEqual([0, 0])
      expect((other.body.balances as { symbol: string }[]).map((entry) => entry.symbol)).toEqual([
        'ETH',
        'ALT',
      ])
    })

    it('leaves out tokens the address does not hold', async () => {
      const stranger = '0x000000000000000000000000000000000000dEaD'
      const { body } = await balance(stranger)
      expect((body.balances as { symbol: string }[]).map((entry) => entry.symbol)).toEqual(['ETH'])
    })

    it('caches for 30 s unless forceUpdate', async () => {
      const address = '0x1000000000000000000000000000000000000001'
      const client = createTestClient({ mode: 'anvil', transport: http(devnet.chains[0].rpcUrl) })
      const numeric = async (query = 'chainId=eip155:31337') =>
        ((await balance(address, query)).body.balances as { quantity: { numeric: string } }[])[0]?.quantity
          .numeric
      await client.setBalance({ address, value: parseEther('1') })
      expect(await numeric()).toBe('1')
      await client.setBalance({ address, value: parseEther('2') })
      expect(await numeric()).toBe('1')
      // The same address in another spelling is the same cache entry.
      expect(await numeric().then(() => numeric())).toBe('1')
      expect(await numeric('chainId=eip155:31337&forceUpdate=true')).toBe('2')
      await client.setBalance({ address, value: parseEther('3') })
      time += balanceTtlMs - 1
      expect(await numeric()).toBe('2')
      time += 2
      expect(await numeric()).toBe('3')
    })

    it('refuses invalid addresses, chains and currencies', async () => {
      const cases: [string, string, string][] = [
        ['0x123', 'chainId=eip155:31337', 'Invalid EVM address'],
        ['0x000000000000000000000000000000000000dEAd', 'chainId=eip155:31337', 'Invalid EVM address'],
        [holder, 'chainId=eip155', 'Invalid CAIP-2 network id'],
        [holder, '', 'chainId'],
        [holder, 'chainId=eip155:1', messages.unsupportedChain('eip155:1')],
        [holder, 'chainId=solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'Unsupported chain'],
        [holder, 'chainId=eip155:31337&currency=doge', 'currency'],
        [holder, 'chainId=eip155:31337&forceUpdate=yes', 'forceUpdate'],
      ]
      for (const [address, query, message] of cases) {
        const { status, body } = await balance(address, query)
        expect(status, `${address} ${query}`).toBe(400)
        expect(body.message).toContain(message)
      }
    })

    it('answers 502 when the chain RPC is dead', async () => {
      expect(await balance(holder, 'chainId=eip155:999')).toEqual({
        status: 502,
        body: { message: messages.rpcUnavailable('eip155:999') },
      })
    })
  })

  describe('POST /v1/fungible/price', () => {
    const post = (body: unknown, query = '') =>
      json(`/v1/fungible/price${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })

    it('prices the assets it knows and leaves out the rest', async () => {
      const { status, body } = await post({
        projectId: 'demo',
        currency: 'usd',
        addresses: [
          `eip155:31337:${Prices.native}`,
          `eip155:31337:${testTokenAddress}`,
          'eip155:1:0x0000000000000000000000000000000000000001',
        ],
      })
      expect(status).toBe(200)
      expect(body.fungibles).toEqual([
        { name: 'Ether', symbol: 'ETH', iconUrl: '', price: 3000, address: `eip155:31337:${Prices.native}` },
        {
          name: 'Airlock Test Token',
          symbol: 'ALT',
          iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
          price: 0.5,
          address: `eip155:31337:${testTokenAddress.toLowerCase()}`,
        },
      ])
    })

    it('takes the project from the query as well', async () => {
      expect((await post({ currency: 'usd', addresses: [] }, '?projectId=demo')).status).toBe(200)
    })

    it('refuses bad bodies and unknown projects', async () => {
      expect((await post('{not json', '?projectId=demo')).body.message).toBe(messages.invalidJson)
      expect((await post({ projectId: 'demo', currency: 'usd', addresses: ['0xabc'] })).body.message).toBe(
        'Invalid CAIP-10 address',
      )
      expect((await post({ projectId: 'demo', currency: 'xxx', addresses: [] })).status).toBe(400)
      expect(
        (
          await post({
            projectId: 'demo',
            currency: 'usd',
            addresses: Array(101).fill(`eip155:1:${Prices.native}`),
          })
        ).status,
      ).toBe(400)
      expect(await post({ projectId: 'nope', currency: 'usd', addresses: [] })).toEqual({
        status: 403,
        body: { message: messages.projectNotConfigured },
      })
      expect(
        (await post({ projectId: 'demo', currency: 'usd', addresses: [], pad: 'x'.repeat(70_000) })).status,
      ).toBe(413)
    })
  })

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

    it('refuses invalid addresses', async () => {
      expect((await json('/v1/identity/alice?projectId=demo')).status).toBe(400)
      expect((await json(`/v1/identity/${holder}?projectId=demo&sender=bob`)).status).toBe(400)
    })
  })

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

  describe('wallet registry', () => {
    type Page = { count: number; data: Registry.Wallet[] }
    const wallets = async (query = '') =>
      (await json(`/getWallets?projectId=demo${query}`)) as { status: number; body: Page }

    it('lists at least 60 real wallets in pages of 40, certified first', async () => {
      const first = await wallets()
      expect(first.status).toBe(200)
      expect(first.body.count).toBeGreaterThanOrEqual(60)
      expect(first.body.data).toHaveLength(40)
      const second = await wallets('&page=2')
      expect(second.body.data.length).toBe(Math.min(40, first.body.count - 40))
      const ids = [...first.body.data, ...second.body.data].map((wallet) => wallet.id)
      expect(new Set(ids).size).toBe(ids.length)
      const badges = first.body.data.map((wallet) => wallet.badge_type)
      expect(badges.indexOf('none')).toBeGreaterThan(badges.lastIndexOf('certified'))
      // Within the certified ones, the popular ones lead, MetaMask first.
      expect(first.body.data.slice(0, 3).map((wallet) => wallet.name)).toEqual([
        'MetaMask',
        'Trust Wallet',
        'OKX Wallet',
      ])
      for (const wallet of first.body.data) {
        expect(wallet.id).toMatch(/^[0-9a-f]{64}$/)
        expect(Object.keys(wallet).sort()).toEqual([
          'badge_type',
          'chains',
          'desktop_link',
          'homepage',
          'id',
          'image_id',
          'mobile_link',
          'name',
          'order',
          'rdns',
          'webapp_link',
        ])
      }
    })

    it('counts all matches on a page past the end', async () => {
      const { count } = (await wallets()).body
      expect((await wallets('&page=99')).body).toEqual({ count, data: [] })
      expect((await wallets('&page=99&search=zzzz')).body).toEqual({ count: 0, data: [] })
    })

    it('searches names in any case, and treats % and _ literally', async () => {
      const { body } = await wallets('&search=METAm')
      expect(body.data.map((wallet) => wallet.name)).toEqual(['MetaMask'])
      expect(body.count).toBe(1)
      expect((await wallets('&search=%25')).body.count).toBe(0)
      expect((await wallets('&search=_')).body.count).toBe(0)
    })

    it('filters by include, exclude, chains and badge', async () => {
      const all = (await wallets('&entries=100')).body.data
      const [a, b] = all
      const included = await wallets(`&include=${a?.id},${b?.id}`)
      expect(included.body.data.map((wallet) => wallet.id).sort()).toEqual([a?.id, b?.id].sort())
      const excluded = await wallets(`&entries=100&exclude=${a?.id}`)
      expect(excluded.body.count).toBe(all.length - 1)
      expect(excluded.body.data.some((wallet) => wallet.id === a?.id)).toBe(false)
      const solana = await wallets('&entries=100&chains=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
      expect(solana.body.count).toBeGreaterThanOrEqual(8)
      expect(
        solana.body.data.every((wallet) => wallet.chains.includes('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')),
      ).toBe(true)
      const certified = await wallets('&entries=100&badge_type=certified')
      expect(certified.body.data.every((wallet) => wallet.badge_type === 'certified')).toBe(true)
    })

    it('refuses bad queries', async () => {
      for (const query of [
        '&page=0',
        '&entries=101',
        '&entries=-1',
        '&page=x',
        '&chains=eip155',
        '&badge_type=gold',
        `&search=${'a'.repeat(101)}`,
        '&include=a%20b',
      ]) {
        expect((await wallets(query)).status, query).toBe(400)
      }
    })

    it('serves wallet images with long cache headers and ETags', async () => {
      const [wallet] = (await wallets('&search=rainbow')).body.data
      const response = await get(`/getWalletImage/${wallet?.image_id}?projectId=demo`)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('image/svg+xml')
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('Content-Security-Policy')).toContain('sandbox')
      expect(await response.text()).toMatch(/^<svg[^>]*>.*>RA<\/text><\/svg>$/)
      const etag = response.headers.get('ETag') ?? ''
      const again = await get(`/getWalletImage/${wallet?.image_id}?projectId=demo`, {
        headers: { 'If-None-Match': etag },
      })
      expect(again.status).toBe(304)
    })

    it('serves token, currency and asset images, and 404s unknown ones', async () => {
      await Registry.putMonogram(db, 'token', 'alt', 'ALT')
      expect((await get('/public/getTokenImage/alt?projectId=demo')).status).toBe(200)
      // An id of another kind is not found under this route.
      expect((await get('/public/getCurrencyImage/alt?projectId=demo')).status).toBe(404)
      expect((await get('/public/getAssetImage/nothing?projectId=demo')).status).toBe(404)
      expect((await get('/getWalletImage/..%2F..%2Fetc?projectId=demo')).status).toBe(400)
    })
  })

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
  })
})
