import type { Request, State } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { Listing } from '../../api/Api.ts'
import { compose as create } from '../../compose.ts'
import type { Config } from '../../core/Config.ts'
import type { Timers } from '../../core/Snackbar.ts'
import { create as createStorage, memory } from '../../core/Storage.ts'
import type { Host } from '../Connector.ts'
import * as WalletConnect from './Client.ts'
import { expiryMarginMs, pairingLifetimeMs } from './Pairing.ts'
import * as WcWallet from './wallet.ts'

const phone = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const solana = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q'
const config: Config = {
  networks: ['eip155:31337', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
  walletConnect: { projectId: 'demo', relayUrl: 'ws://127.0.0.1:8790' },
}
const rainbow: Listing = {
  id: 'r',
  name: 'Rainbow',
  image_id: 'img',
  rdns: 'me.rainbow',
  chains: ['eip155:1'],
  mobile_link: 'rainbow://',
  desktop_link: null,
  webapp_link: null,
}
const session = (topic = 't1'): WalletConnect.Session => ({
  topic,
  expiry: Date.now() / 1000 + 3600,
  peer: { name: 'Phone Wallet', icons: [], url: 'https://wallet.example' },
  accounts: [`eip155:31337:${phone.toLowerCase()}`, `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:${solana}`],
})

/** A sign-client stand-in: the test decides when (and whether) the wallet approves each pairing. */
function fakeClient() {
  const approvals: { resolve(s: WalletConnect.Session): void; reject(e: unknown): void }[] = []
  let onEvent: (event: WalletConnect.Event) => void = () => {}
  const client: WalletConnect.Client = {
    pair: vi.fn(async () => {
      const approval = new Promise<WalletConnect.Session>((resolve, reject) =>
        approvals.push({ resolve, reject }),
      )
      return { uri: `wc:${'a'.repeat(63)}${approvals.length}@2?relay-protocol=irn&symKey=00`, approval }
    }),
    restore: vi.fn(() => undefined),
    request: vi.fn(async (_s: WalletConnect.Session, request: Request) =>
      request.method === 'personal_sign' ? '0xsigned' : null,
    ),
    disconnect: vi.fn(async () => {}),
  }
  const module = {
    ...WalletConnect,
    create: vi.fn(async (options: WalletConnect.Options) => {
      onEvent = options.onEvent
      return client
    }),
  }
  return { client, module, approvals, emit: (event: WalletConnect.Event) => onEvent(event) }
}

function clock() {
  let time = 1_000_000
  let pending: { at: number; callback: () => void }[] = []
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const timer = { at: time + ms, callback }
      pending.push(timer)
      return timer
    },
    clearTimeout: (handle) => {
      pending = pending.filter((timer) => timer !== handle)
    },
  }
  const advance = (ms: number) => {
    time += ms
    const due = pending.filter((timer) => timer.at <= time)
    pending = pending.filter((timer) => timer.at > time)
    for (const timer of due) timer.callback()
  }
  return { timers, advance, now: () => time }
}

async function setup(
  options: {
    mobile?: boolean
    pairingConnects?: boolean
    open?: boolean
    features?: Config['features']
    /** Runs on the modal before its start, while no feature's logic has loaded yet. */
    beforeStart?: (modal: ReturnType<typeof create>) => void
  } = {},
) {
  const wc = fakeClient()
  const time = clock()
  const storage = createStorage(memory())
  const opened: string[] = []
  const tracked: unknown[] = []
  const states: State[] = []
  const wallets = vi.fn(async () => ({ count: 1, data: [rainbow] }))
  const host = {
    listWallets: vi.fn(async () => []),
    walletRequest: vi.fn(async () => null),
    setState: vi.fn(async (state: State) => void states.push(state)),
    resize: vi.fn(async () => undefined),
    ping: vi.fn(async () => 'pong' as const),
  }
  let flowLoaded: Promise<unknown> | undefined
  const modal = create({
    // The visitor's consent, as a host with its own consent banner passes it: events are sent at once.
    config: { ...config, features: { analyticsConsent: true, ...options.features } },
    storage,
    mobile: options.mobile ?? false,
    pairingConnects: options.pairingConnects ?? false,
    loadRegistry: () => import('../../shared/networks.ts'),
    loadChainClient: async () => ({ waitForReceipt: async () => {} }),
    loadClient: async () => wc.module,
    loadFlow: () => {
      const loading = import('./Flow.ts')
      flowLoaded = loading
      return loading
    },
    openUrl: (url) => void opened.push(url),
    preload: async () => {},
    api: {
      balances: async () => [],
      wallets,
      imageUrl: () => 'http://127.0.0.1:8787/img',
      track: async (event) => void tracked.push(event),
      analyticsEnabled: async () => true,
      nonce: async () => 'n0nce1234',
      signIn: () => Promise.reject(new Error('not used')),
      sessions: async () => [],
    },
    timers: time.timers,
    now: time.now,
    walletGrace: 20,
  })
  options.beforeStart?.(modal)
  await modal.start({ host: host as unknown as Host, origin: 'http://localhost:5173' })
  if (options.open === false)
    return { modal, wc, time, storage, opened, tracked, states, api: modal.api, wallets }
  modal.api.open(undefined)
  // The flow and the registry load when the modal first shows; tests start once both are in.
  await vi.waitFor(() => expect(modal.getSnapshot().registry).toBeDefined())
  await vi.waitFor(() => expect(flowLoaded).toBeDefined())
  await flowLoaded
  await settle()
  return { modal, wc, time, storage, opened, tracked, states, api: modal.api, wallets }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

describe('WalletConnect in the modal', () => {
  it('reads the registry for Connect once, while the frame is still hidden, so Connect opens complete', async () => {
    const { modal, wallets } = await setup({ open: false })
    await settle()
    expect(wallets).toHaveBeenCalledTimes(1)
    modal.api.open(undefined)
    await vi.waitFor(() =>
      expect(modal.getSnapshot().featured.map((listing: Listing) => listing.name)).toEqual(['Rainbow']),
    )
    modal.api.close(undefined)
    modal.api.open(undefined)
    await settle()
    expect(wallets).toHaveBeenCalledTimes(1)
  })

  it('pairs, and an approved session connects every namespace it carries; success is recorded as qrcode', async () => {
    const { modal, wc, tracked, storage, api } = await setup()
    modal.ui.connectWalletConnect()
    await settle()
    expect(modal.getSnapshot().view).toBe('ConnectingWalletConnectBasic')
    // Keys and sessions are kept per host page in the modal origin's storage.
    expect(wc.module.create).toHaveBeenCalledWith(
      expect.objectContaining({
        storagePrefix: 'airlock-http___localhost_5173',
        relayUrl: 'ws://127.0.0.1:8790',
      }),
    )
    expect(modal.getSnapshot().pairing).toMatchObject({
      status: 'waiting',
      uri: expect.stringMatching(/^wc:/),
    })
    wc.approvals[0]?.resolve(session())
    await settle()
    expect(modal.getSnapshot().view).toBe('Account')
    expect(await api.request({ namespace: 'eip155', method: 'eth_accounts' })).toEqual([phone])
    const state = modal.getSnapshot()
    expect(state.account?.wallet).toMatchObject({ id: WcWallet.id, name: 'Phone Wallet' })
    expect(state.otherAccounts.map((account) => account.address)).toEqual([solana])
    expect(tracked).toEqual([
      { event: 'CONNECT_SUCCESS', properties: { method: 'qrcode', name: 'Phone Wallet' } },
    ])
    const recent = storage.getRecentWallets()
    expect(recent).toHaveLength(2)
    expect(recent).toEqual(
      expect.arrayContaining([
        { namespace: 'solana', rdns: WcWallet.rdns, name: 'Phone Wallet' },
        { namespace: 'eip155', rdns: WcWallet.rdns, name: 'Phone Wallet' },
      ]),
    )
  })

  it('a host that opens the QR view before WalletConnect’s logic has loaded gets a pairing once it has', async () => {
    const { modal, wc } = await setup({
      open: false,
      beforeStart: (early) => early.api.open({ view: 'ConnectingWalletConnectBasic' }),
    })
    await vi.waitFor(() => expect(modal.getSnapshot().pairing.status).toBe('waiting'))
    expect(wc.client.pair).toHaveBeenCalledTimes(1)
  })

  it('records nothing when the host switched analytics off', async () => {
    const { modal, wc, tracked } = await setup({ features: { analytics: false } })
    modal.ui.connectWalletConnect()
    await settle()
    wc.approvals[0]?.resolve(session())
    await settle()
    expect(modal.getSnapshot().view).toBe('Account')
    expect(tracked).toEqual([])
  })

  it('has no registry wallets and no AllWallets when the host switched allWallets off', async () => {
    const { modal, api, wallets, states } = await setup({ open: false, features: { allWallets: false } })
    api.open(undefined)
    await settle()
    expect(wallets).not.toHaveBeenCalled()
    expect(modal.getSnapshot().featured).toBeUndefined()
    expect(modal.views.has('AllWallets')).toBe(false)
    api.open({ view: 'AllWallets' })
    expect(states.at(-1)?.view).toBe('Connect')
    // The QR code still works: WalletConnect itself is on.
    expect(modal.views.has('ConnectingWalletConnectBasic')).toBe(true)
  })

  it('routes requests through the session', async () => {
    const { modal, wc, api } = await setup()
    modal.ui.connectWalletConnect()
    await settle()
    wc.approvals[0]?.resolve(session())
    await settle()
    expect(await api.request({ namespace: 'eip155', method: 'personal_sign', params: ['0x00', phone] })).toBe(
      '0xsigned',
    )
    expect(wc.client.request).toHaveBeenCalledWith(
      expect.objectContaining({ topic: 't1' }),
      { namespace: 'eip155', method: 'personal_sign', params: ['0x00', phone] },
      'eip155:31337',
    )
  })

  it('counts a pairing expired 10 s before its 4 minutes are up; Retry makes a new one', async () => {
    const { modal, wc, time } = await setup()
    modal.ui.connectWalletConnect()
    await settle()
    const first = modal.getSnapshot().pairing.uri
    expect(modal.getSnapshot().pairing.expiresAt).toBe(time.now() + pairingLifetimeMs - expiryMarginMs)
    time.advance(pairingLifetimeMs - expiryMarginMs - 1)
    await settle()
    expect(modal.getSnapshot().pairing.status).toBe('waiting')
    time.advance(1)
    await settle()
    expect(modal.getSnapshot().pairing).toMatchObject({ status: 'expired', uri: undefined })
    expect(wc.client.pair).toHaveBeenCalledTimes(1)
    modal.ui.retry()
    await settle()
    expect(wc.client.pair).toHaveBeenCalledTimes(2)
    expect(modal.getSnapshot().pairing.status).toBe('waiting')
    expect(modal.getSnapshot().pairing.uri).not.toBe(first)
    // The replaced pairing's late approval is not taken, and its session is ended.
    wc.approvals[0]?.resolve(session('old'))
    await settle()
    expect(modal.getSnapshot().account).toBeUndefined()
    expect(wc.client.disconnect).toHaveBeenCalledWith(expect.objectContaining({ topic: 'old' }))
  })

  it('on a phone opens the wallet app, records mobile, keeps its deep link for requests; reset drops it', async () => {
    const { modal, wc, opened, tracked, storage, api } = await setup({ mobile: true })
    modal.ui.connectWalletConnect(rainbow)
    await settle()
    expect(modal.getSnapshot().pairing.links).toEqual(['mobile'])
    modal.ui.openWallet('mobile')
    const uri = modal.getSnapshot().pairing.uri ?? ''
    expect(opened).toEqual([`rainbow://wc?uri=${encodeURIComponent(uri)}`])
    wc.approvals[0]?.resolve(session())
    await settle()
    expect(tracked).toEqual([{ event: 'CONNECT_SUCCESS', properties: { method: 'mobile', name: 'Rainbow' } }])
    expect(storage.getDeepLink()).toEqual({ name: 'Rainbow', href: 'rainbow://' })
    await api.request({ namespace: 'eip155', method: 'personal_sign', params: ['0x00', phone] })
    expect(opened.at(-1)).toBe('rainbow://')
    modal.ui.connectWalletConnect(rainbow)
    modal.ui.back()
    expect(storage.getDeepLink()).toBeUndefined()
  })

  it('counts as connecting while a pairing waits, on browsers that suspend a waiting page', async () => {
    const { modal, states } = await setup({ pairingConnects: true })
    modal.ui.connectWalletConnect()
    await settle()
    expect(states.at(-1)?.status).toBe('connecting')
    modal.ui.close()
    await settle()
    expect(states.at(-1)?.status).toBe('disconnected')
  })

  it('a session the wallet deletes disconnects every namespace it served', async () => {
    const { modal, wc, api, states } = await setup()
    modal.ui.connectWalletConnect()
    await settle()
    wc.approvals[0]?.resolve(session())
    await settle()
    wc.emit({ type: 'deleted', topic: 't1' })
    await settle()
    expect(await api.request({ namespace: 'eip155', method: 'eth_accounts' })).toEqual([])
    expect(states.at(-1)?.namespaces).toEqual({})
  })

  it('a failed pairing can be tried again after 1 s', async () => {
    const { modal, wc, time } = await setup()
    modal.ui.connectWalletConnect()
    await settle()
    wc.approvals[0]?.reject(Object.assign(new Error('Proposal expired'), { code: 8000 }))
    await settle()
    expect(modal.getSnapshot().pairing).toMatchObject({
      status: 'failed',
      failure: { message: 'Proposal expired' },
    })
    modal.ui.retry()
    await settle()
    expect(wc.client.pair).toHaveBeenCalledTimes(1)
    time.advance(1_000)
    await settle()
    expect(wc.client.pair).toHaveBeenCalledTimes(2)
  })
})
