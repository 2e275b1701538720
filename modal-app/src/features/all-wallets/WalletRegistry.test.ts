import { type Database, Projects, Registry, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { closedPort } from '@airlock/api/testing'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Api from '../../api/Api.ts'
import type { Timers } from '../../core/Snackbar.ts'
import * as WalletRegistry from './WalletRegistry.ts'

// The real service and its seeded registry, in this process.
let db: Database.Database
let running: Service.Running
let api: Api.Client
let total: number
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  total = await Registry.seed(db)
  const config = { apiUrl: 'http://127.0.0.1:0', modalOrigin: 'http://127.0.0.1:5174', chains: [] }
  running = await Service.listen(Service.create({ db, config }), { apiPort: 0 })
  api = Api.create({ baseUrl: running.apiUrl, projectId: 'demo' })
})
afterAll(async () => {
  await running?.stop()
  await db?.close()
})

function setup(overrides: Partial<WalletRegistry.Options> = {}) {
  const delays: number[] = []
  const scheduled: (() => void)[] = []
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      delays.push(ms)
      // Image time-outs fire at once here; the search pause waits for the test.
      if (ms === WalletRegistry.prefetchTimeoutMs) queueMicrotask(callback)
      else scheduled.push(callback)
      return scheduled.length
    },
    clearTimeout: () => {},
  }
  const preloaded: string[] = []
  let changes = 0
  const registry = WalletRegistry.create({
    api,
    installed: () => [],
    exclude: [],
    featured: [],
    mobile: false,
    timers,
    preload: async (url) => {
      preloaded.push(url)
    },
    onChange: () => changes++,
    ...overrides,
  })
  // Every load sets `loading` at once, so its end is the answer in (or the failure): no fixed wait.
  const settled = () => vi.waitFor(() => expect(registry.state().loading).toBe(false))
  return { registry, delays, scheduled, preloaded, settled, changes: () => changes }
}

describe('WalletRegistry', () => {
  it('lists pages of 40, prefetching 20 images per page, until all are in', async () => {
    const { registry, preloaded, settled } = setup()
    registry.open()
    await settled()
    expect(registry.state()).toMatchObject({ count: total, loading: false, done: false })
    expect(registry.state().items).toHaveLength(40)
    expect(preloaded).toHaveLength(20)
    expect(preloaded[0]).toMatch(/\/getWalletImage\/[\w-]+\?projectId=demo/)
    registry.more()
    await settled()
    registry.more()
    await settled()
    expect(registry.state().items).toHaveLength(total)
    expect(registry.state().done).toBe(true)
    expect(new Set(registry.state().items.map((item) => item.id)).size).toBe(total)
  })

  it('searches after a 300 ms pause, the last text only', async () => {
    const { registry, scheduled, delays, settled } = setup()
    registry.search('met')
    registry.search('meta')
    expect(delays.filter((ms) => ms === WalletRegistry.searchDelayMs)).toHaveLength(2)
    expect(registry.state().loading).toBe(true)
    for (const run of scheduled.splice(0)) run()
    await settled()
    expect(registry.state().items.map((item) => item.name)).toEqual(['MetaMask'])
    expect(registry.state().done).toBe(true)
  })

  it('hides excluded wallets, and wallets already on the page by rdns or name', async () => {
    const all = await api.wallets({ page: 1, entries: 100 })
    const [first, third] = all.data
    const second = all.data.find((item) => item.rdns && item !== first && item !== third)
    const { registry, settled } = setup({
      exclude: [first?.id ?? ''],
      installed: () => [
        { rdns: second?.rdns ?? 'none', name: 'x' },
        { name: third?.name.toUpperCase() ?? '' },
      ],
    })
    registry.open()
    await settled()
    const ids = registry.state().items.map((item) => item.id)
    expect(ids).not.toContain(first?.id)
    expect(ids).not.toContain(second?.id)
    expect(ids).not.toContain(third?.id)
  })

  it('hides the wallets the host names by rdns or by name (in any case), in the list and the suggestions', async () => {
    const all = (await api.wallets({ page: 1, entries: 100 })).data
    const byRdns = all.find((item) => item.rdns)
    const byName = all.find((item) => item !== byRdns && item.name.includes(' ')) ?? all[1]
    const exclude = [byRdns?.rdns ?? '', byName?.name.toLowerCase() ?? '']
    const { registry, settled } = setup({ exclude })
    registry.open()
    await settled()
    expect(registry.state().failed).toBe(false)
    const ids = registry.state().items.map((item) => item.id)
    expect(ids).not.toContain(byRdns?.id)
    expect(ids).not.toContain(byName?.id)
    const { featured, recommended } = await registry.suggestions()
    expect([...featured, ...recommended].map((item) => item.id)).not.toContain(byRdns?.id)
  })

  it('on mobile hides wallets that cannot be opened there', async () => {
    const { registry, settled } = setup({ mobile: true })
    registry.open()
    await settled()
    expect(registry.state().items.every((item) => item.mobile_link || item.webapp_link)).toBe(true)
  })

  it('suggests 4 featured (configured ids first, in their order) and 4 other recommended', async () => {
    const all = (await api.wallets({ page: 1, entries: 100 })).data
    const picks = [all[10]?.id ?? '', all[5]?.id ?? '']
    const { registry } = setup({ featured: picks })
    const { featured, recommended } = await registry.suggestions()
    expect(featured.map((item) => item.id)).toEqual(picks)
    expect(recommended).toHaveLength(4)
    expect(recommended.some((item) => picks.includes(item.id))).toBe(false)
    const plain = await setup().registry.suggestions()
    expect(plain.featured.map((item) => item.id)).toEqual(all.slice(0, 4).map((item) => item.id))
    expect(plain.recommended.map((item) => item.id)).toEqual(all.slice(4, 8).map((item) => item.id))
    // Connect's "All wallets" row counts what AllWallets lists.
    expect(plain.count).toBe(total)
  })

  it('says so when the registry cannot be read, and does not page on', async () => {
    const down = Api.create({ baseUrl: `http://127.0.0.1:${await closedPort()}`, projectId: 'demo' })
    const { registry } = setup({ api: down })
    registry.open()
    // The client retries a dead API (150 ms, then 300 ms) before the registry may say so.
    await vi.waitFor(() =>
      expect(registry.state()).toMatchObject({ failed: true, loading: false, items: [] }),
    )
  })
})
