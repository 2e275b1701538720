/**
 * The modal's documented values (docs/behaviour.md), written out as literals and read through what the modal does with them (docs/behaviour.md
 * §2, §3, §4, §8, §9): cache lengths and retry blocks on a clock the test moves, the snackbar's swap and
 * the card's shake, the pairing's 4 minutes / 10 s / 1 s, the registry's pages, search pause and image
 * time-out, the storage prefix, and the texts docs/behaviour.md names. A change to any of them turns this red, so it can
 * only be a deliberate change to this file too.
 */
import { Errors, type PageWallet, type Request } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import * as Api from './api/Api.ts'
import { compose } from './compose.ts'
import type { Host } from './connectors/Connector.ts'
import * as Pairing from './connectors/walletconnect/Pairing.ts'
import * as Alerts from './core/Alerts.ts'
import * as Snackbar from './core/Snackbar.ts'
import * as Storage from './core/Storage.ts'
import * as WalletRegistry from './features/all-wallets/WalletRegistry.ts'
import { texts } from './shared/texts.ts'
import { manualClock } from './testing/clock.ts'

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

describe('docs/behaviour.md §2: snackbar and shake', () => {
  it('closes an open snackbar and shows the next one 150 ms later', () => {
    const clock = manualClock()
    const snackbar = Snackbar.create({ onChange: () => {}, timers: clock.timers })
    snackbar.show('loading', 'Switching…')
    snackbar.show('success', 'Switched')
    expect(snackbar.current()).toBeUndefined()
    clock.advance(149)
    expect(snackbar.current()).toBeUndefined()
    clock.advance(1)
    expect(snackbar.current()).toMatchObject({ variant: 'success', message: 'Switched' })
  })

  it('shakes for 500 ms', () => {
    const clock = manualClock()
    const shake = Snackbar.shaker(clock.timers, () => {})
    shake.start()
    clock.advance(499)
    expect(shake.active()).toBe(true)
    clock.advance(1)
    expect(shake.active()).toBe(false)
  })
})

describe('docs/behaviour.md §4 and §9: the WalletConnect pairing', () => {
  it('lasts 4 minutes and counts as expired under 10 s left: replaced 3 min 50 s after it was proposed', () => {
    const actor = createActor(Pairing.machine).start()
    actor.send({ type: 'START' })
    actor.send({ type: 'PROPOSED', attempt: 1, uri: 'wc:1@2', now: 1_000 })
    expect(actor.getSnapshot().context.expiresAt).toBe(1_000 + 240_000 - 10_000)
  })

  it('allows a retry 1 s after a failure, not before', () => {
    const actor = createActor(Pairing.machine).start()
    actor.send({ type: 'START' })
    actor.send({ type: 'FAILED', attempt: 1, failure: { code: 4001, message: 'x' }, now: 5_000 })
    actor.send({ type: 'RETRY', now: 5_999 })
    expect(actor.getSnapshot().value).toBe('failed')
    actor.send({ type: 'RETRY', now: 6_000 })
    expect(actor.getSnapshot().value).toBe('proposing')
  })
})

describe('docs/behaviour.md §9: the wallet registry', () => {
  const listing = (n: number): Api.Listing => ({
    id: `w${n}`,
    name: `Wallet ${n}`,
    image_id: `i${n}`,
    rdns: null,
    chains: [],
    mobile_link: null,
    desktop_link: null,
    webapp_link: null,
  })
  function registry() {
    const clock = manualClock()
    const asked: { page: number; entries: number; search?: string | undefined }[] = []
    const preloaded: string[] = []
    const created = WalletRegistry.create({
      api: {
        wallets: async (query) => {
          asked.push({ page: query.page, entries: query.entries, search: query.search })
          return { count: 500, data: Array.from({ length: query.entries }, (_, i) => listing(i)) }
        },
        imageUrl: (id) => `https://registry.example/${id}`,
      },
      installed: () => [],
      exclude: [],
      featured: [],
      mobile: false,
      timers: clock.timers,
      // Images that never load: only the time-out ends their wait.
      preload: (url) => {
        preloaded.push(url)
        return new Promise(() => {})
      },
      onChange: () => {},
    })
    return { created, clock, asked, preloaded }
  }

  it('pages by 40, prefetches 20 images per page, and waits at most 2 s for them', async () => {
    const { created, clock, asked, preloaded } = registry()
    created.open()
    await settle()
    expect(asked).toEqual([{ page: 1, entries: 40, search: undefined }])
    expect(preloaded).toHaveLength(20)
    expect(created.state().loading).toBe(true)
    clock.advance(1_999)
    await settle()
    expect(created.state().loading).toBe(true)
    clock.advance(1)
    await settle()
    expect(created.state()).toMatchObject({ loading: false })
    expect(created.state().items).toHaveLength(40)
  })

  it('searches 100 entries after a 300 ms pause', async () => {
    const { created, clock, asked } = registry()
    created.search('meta')
    clock.advance(299)
    await settle()
    expect(asked).toEqual([])
    clock.advance(1)
    await settle()
    expect(asked).toEqual([{ page: 1, entries: 100, search: 'meta' }])
  })

  it('suggests 4 featured and 4 recommended wallets', async () => {
    const { featured, recommended } = await registry().created.suggestions()
    expect([featured.length, recommended.length]).toEqual([4, 4])
  })
})

describe('docs/behaviour.md §3: what the modal remembers', () => {
  it('keeps everything under the @airlock/ prefix', () => {
    const backend = Storage.memory()
    const keys: string[] = []
    const storage = Storage.create({
      ...backend,
      setItem: (key, value) => {
        keys.push(key)
        backend.setItem(key, value)
      },
    })
    storage.setActiveNetwork('eip155:1')
    storage.addRecentWallet({ namespace: 'eip155', name: 'A' })
    expect(keys).toEqual(['@airlock/activeNetwork', '@airlock/recentWallets'])
  })

  it('keeps 2 recent wallets', () => {
    const storage = Storage.create()
    for (const name of ['A', 'B', 'C']) storage.addRecentWallet({ namespace: 'eip155', name })
    expect(storage.getRecentWallets().map((wallet) => wallet.name)).toEqual(['C', 'B'])
  })
})

const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const wallet: PageWallet = {
  id: 'eip6963:1',
  namespace: 'eip155',
  name: 'Test EVM',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: 'dev.test',
  chains: [],
}
const ether = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: 'eip155:31337',
  value: 3000,
  price: 3000,
  quantity: { decimals: '18', numeric: '1' },
  iconUrl: '',
}

/** The modal with one EVM page wallet, connected, on a clock the test holds; balances from `balances`. */
async function connectedModal(now: () => number, balances: () => Promise<Api.TokenBalance[]>) {
  let authorized = false
  const host = {
    listWallets: async () => [wallet],
    walletRequest: async ({ request }: { walletId: string; request: Request }) => {
      if (request.method === 'eth_requestAccounts') authorized = true
      if (request.method === 'eth_requestAccounts' || request.method === 'eth_accounts')
        return authorized ? [evmAddress] : []
      if (request.method === 'eth_chainId') return '0x7a69'
      throw new Errors.UnsupportedMethodError()
    },
    setState: async () => undefined,
    resize: async () => undefined,
    ping: async () => 'pong' as const,
  }
  const reads: number[] = []
  const modal = compose({
    config: { networks: ['eip155:31337'] },
    storage: Storage.create(Storage.memory()),
    loadRegistry: () => import('./shared/networks.ts'),
    loadChainClient: async () => ({ waitForReceipt: async () => {} }),
    api: {
      balances: () => {
        reads.push(now())
        return balances()
      },
      wallets: async () => ({ count: 0, data: [] }),
      imageUrl: () => '',
      track: async () => {},
      nonce: async () => 'n0nce1234',
      signIn: () => Promise.reject(new Error('not used')),
      sessions: async () => [],
    },
    now,
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    walletGrace: 20,
  })
  await modal.start({ host: host as unknown as Host, origin: 'http://localhost:5173' })
  const pending = modal.api.request({ namespace: 'eip155', method: 'eth_requestAccounts' })
  await settle()
  modal.ui.selectWallet(wallet)
  await pending
  await settle()
  /** The visitor opens the modal again: a read the cache or the block may spare. */
  const reopen = async () => {
    await modal.api.open(undefined)
    await settle()
  }
  return { modal, reads, reopen }
}

describe('docs/behaviour.md §8 and §9: balances', () => {
  it('caches a balance 30 s: opening at 29.999 s reads nothing, at 30 s reads again', async () => {
    let time = 1_000_000
    const { reads, reopen } = await connectedModal(
      () => time,
      async () => [ether],
    )
    expect(reads).toEqual([1_000_000])
    time += 29_999
    await reopen()
    expect(reads).toEqual([1_000_000])
    time += 1
    await reopen()
    expect(reads).toEqual([1_000_000, 1_030_000])
  })

  it("says 'Token Balance Unavailable' when a read fails, and asks nothing for 30 s", async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let time = 1_000_000
    const { modal, reads, reopen } = await connectedModal(
      () => time,
      async () => {
        throw new Error('HTTP status code: 502')
      },
    )
    expect(modal.getSnapshot().snackbar).toMatchObject({
      variant: 'error',
      message: 'Token Balance Unavailable',
    })
    time += 29_999
    await reopen()
    expect(reads).toEqual([1_000_000])
    time += 1
    await reopen()
    expect(reads).toEqual([1_000_000, 1_030_000])
    expect(warned).toHaveBeenCalledTimes(2)
    warned.mockRestore()
  })
})

describe('docs/behaviour.md §5 and §8: texts', () => {
  it('names the refusals of a page: Invalid App Configuration, Project ID Not Configured', () => {
    const alerts = Alerts.create(() => {})
    alerts.add('invalidAppConfiguration')
    alerts.add('projectIdNotConfigured')
    expect(alerts.list().map((alert) => alert.title)).toEqual([
      'Invalid App Configuration',
      'Project ID Not Configured',
    ])
  })

  it("answers an API refusal with 'HTTP status code: N', and the API's own message after it", async () => {
    const answering = (response: () => Response) =>
      Api.create({ baseUrl: 'http://api.example', projectId: 'demo', fetch: async () => response() })
    await expect(answering(() => new Response('<html>', { status: 418 })).sessions('x')).rejects.toThrow(
      /^HTTP status code: 418$/,
    )
    await expect(
      answering(() => Response.json({ message: 'Invalid session' }, { status: 401 })).sessions('x'),
    ).rejects.toThrow(/^HTTP status code: 401: Invalid session$/)
  })

  it('words the rest as docs/behaviour.md does', () => {
    expect({
      failedToDisconnect: texts.errors.failedToDisconnect,
      tokenBalanceUnavailable: texts.errors.tokenBalanceUnavailable,
      transactionsUnavailable: texts.errors.transactionsUnavailable,
      noAccountForTransactions: texts.errors.noAccountForTransactions,
      userRejected: texts.errors.userRejected,
      fallback: texts.errors.fallback,
      declined: texts.signIn.declined,
      notEnabled: texts.signIn.notEnabled,
      noAccount: texts.signIn.noAccount,
    }).toEqual({
      failedToDisconnect: 'Failed to disconnect',
      tokenBalanceUnavailable: 'Token Balance Unavailable',
      transactionsUnavailable: 'Failed to fetch transactions',
      noAccountForTransactions: "Transactions can't be fetched without an accountAddress",
      userRejected: 'User rejected the request.',
      fallback: 'An error occurred',
      declined: 'Signature declined',
      notEnabled: 'SIWX is not enabled',
      noAccount: 'No ActiveCaipAddress found',
    })
  })
})
