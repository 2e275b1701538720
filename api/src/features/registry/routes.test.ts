import { gunzipSync } from 'node:zlib'
import * as S from '@airlock/bridge-protocol/Shape'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { calls, configOf } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Icons from './Icons.ts'
import * as Registry from './Registry.ts'

describe.each(databases())('registry routes on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  const time = Date.UTC(2026, 10, 22)
  const { get, json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*'])
    await Registry.seed(db)
    api = Service.create({ db, config: configOf(), now: () => time }).api
  })
  afterAll(() => db?.close())

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
      // Rainbow's own icon, as shipped.
      expect(await response.text()).toBe(Icons.shipped().get('Rainbow'))
      const etag = response.headers.get('ETag') ?? ''
      const again = await get(`/getWalletImage/${wallet?.image_id}?projectId=demo`, {
        headers: { 'If-None-Match': etag },
      })
      expect(again.status).toBe(304)
    })

    it('serves a monogram for a wallet that ships no icon', async () => {
      const [wallet] = (await wallets('&search=alphawallet')).body.data
      const response = await get(`/getWalletImage/${wallet?.image_id}?projectId=demo`)
      expect(await response.text()).toMatch(/^<svg[^>]*>.*>AL<\/text><\/svg>$/)
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

  it('answers a page from memory for a minute, then shows the registry as it is now', async () => {
    let at = time
    const app = Service.create({ db, config: configOf(), now: () => at }).api
    const names = async () => {
      const response = await app.request('/getWallets?projectId=demo&search=METAm')
      return ((await response.json()) as { data: Registry.Wallet[] }).data.map((wallet) => wallet.name)
    }
    expect(await names()).toEqual(['MetaMask'])
    await db.query(`update wallets set name = 'MetaMask Renamed' where name = 'MetaMask'`)
    try {
      at += 59_999
      expect(await names()).toEqual(['MetaMask'])
      at += 1
      expect(await names()).toEqual(['MetaMask Renamed'])
    } finally {
      await db.query(`update wallets set name = 'MetaMask' where name = 'MetaMask Renamed'`)
    }
  })

  it('sends a page compressed as the client accepts, with an ETag per encoding, and 304 once it holds it', async () => {
    const path = '/getWallets?projectId=demo&search=wal'
    const plain = await get(path)
    const text = await plain.text()
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toContain('Accept-Encoding')
    const gzip = await get(path, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    const bytes = new Uint8Array(await gzip.arrayBuffer())
    expect(bytes.length).toBeLessThan(text.length / 3)
    expect(gunzipSync(bytes).toString()).toBe(text)
    const etag = gzip.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"[\w-]+-gz"$/)
    expect(etag).not.toBe(plain.headers.get('etag'))
    const again = await get(path, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    // The plain bytes' tag does not stand for the gzip ones.
    const other = await get(path, { headers: { 'If-None-Match': etag } })
    expect(other.status).toBe(200)
    expect(await other.text()).toBe(text)
  })

  it('answers in the shape of the contract the modal parses with', async () => {
    const { body } = await json('/getWallets?projectId=demo&entries=100')
    expect(S.parse(Contract.walletsAnswer, body)).toMatchObject({ ok: true })
  })
})
