/**
 * The embedded wallet's runtime inside the modal's kernel, without a DOM: the views' actions (`ui`), the
 * snapshot's `embeddedWallet` slice and the router's view, against the real API (PGlite, project `demo`), the
 * mail catcher for the codes and, for reads, anvil behind the API's relay.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Config as ApiConfig, Database, Projects, Service } from '@airlock/api'
import { closedPort } from '@airlock/api/testing'
import { Errors, type PageWallet, type Request, type State } from '@airlock/bridge-protocol'
import { type Address, type Hex, toHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
// By path: the devnet runs the modal's build, so a package dependency would be a cycle.
import * as Anvil from '../../../../devnet/src/Anvil.ts'
import * as Mail from '../../../../devnet/src/Mail.ts'
import * as Api from '../../api/Api.ts'
import type { Feature, Kernel } from '../../core/Feature.ts'
import * as Modal from '../../core/Modal.ts'
import type { Timers } from '../../core/Snackbar.ts'
import { create as createStorage, memory } from '../../core/Storage.ts'
import * as Features from '../../features/index.ts'
import type { Host } from '../Connector.ts'
import * as Account from './Account.ts'
import * as Embedded from './testing.ts'
import { approveView, codeView, walletView } from './views.ts'

/** The modal origin the API serves wallet shares to (as `testing.ts` configures it). */
const modalOrigin = 'http://127.0.0.1:5174'
/** The dApp page the modal serves, as the handshake reported it. */
const page = 'http://localhost:5173'
const solanaDevnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const password = 'correct horse battery staple'

// ---- the browser the modal frame runs in ----

/** Every request the modal frame sent, as `METHOD /path`. */
const sent: string[] = []
const realFetch = globalThis.fetch
/**
 * A browser sends `Origin` on the frame's cross-origin calls by itself; Node's fetch does not. The runtime
 * builds its API client with the global fetch and takes none of its own, so the global is wrapped, before the
 * modal is built, to say what the browser would (the API serves wallet shares to the modal origin only).
 */
const fromModalFrame: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  sent.push(`${init?.method ?? 'GET'} ${url.pathname}`)
  const headers = new Headers(init?.headers)
  headers.set('Origin', modalOrigin)
  return realFetch(input, { ...init, headers })
}
const sentTo = (path: string) => sent.filter((line) => line.endsWith(` ${path}`)).length

/** The modal origin's `localStorage`, kept by the frame (first-party, or partitioned and lasting). */
class BrowserStorage implements Storage {
  readonly #items = new Map<string, string>()
  get length() {
    return this.#items.size
  }
  key = (index: number) => [...this.#items.keys()][index] ?? null
  getItem = (key: string) => this.#items.get(key) ?? null
  setItem = (key: string, value: string) => void this.#items.set(key, String(value))
  removeItem = (key: string) => void this.#items.delete(key)
  clear = () => this.#items.clear()
  /** The keys holding `part`. */
  keys = (part: string) => [...this.#items.keys()].filter((key) => key.includes(part))
}
let browser: BrowserStorage

beforeAll(() => {
  vi.stubGlobal('fetch', fromModalFrame)
})
afterAll(() => {
  vi.unstubAllGlobals()
})

// ---- the modal ----

/** The kernel's clock, moved by the test: `now`, and timers that fire only when it passes them. */
function manualClock(start = Date.now()) {
  let now = start
  let serial = 0
  let pending: { id: number; at: number; callback: () => void }[] = []
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      pending.push({ id: ++serial, at: now + ms, callback })
      return serial
    },
    clearTimeout: (id) => {
      pending = pending.filter((timer) => timer.id !== id)
    },
  }
  const advance = (ms: number) => {
    const until = now + ms
    for (;;) {
      const due = pending.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      pending = pending.filter((timer) => timer !== due)
      now = due.at
      due.callback()
    }
    now = until
  }
  return { now: () => now, timers, advance }
}
type Clock = ReturnType<typeof manualClock>

/** What the embedded wallet's views read from the snapshot. */
type Slice = {
  email: { sending: boolean; error?: string | undefined; restorable: boolean }
  code: {
    verifying: boolean
    error?: string | undefined
    notice?: string | undefined
    email: string
    retryAt: number
    opening: boolean
  }
  recovery?: { mode: 'create' | 'recover' | 'keep'; busy: boolean; error?: string | undefined; min: number }
  user?: Account.User | undefined
  approval?: { origin: string; description: { title: string }; busy: boolean; pending: number } | undefined
}

/**
 * The modal as `compose.ts` builds it, over the real API client, plus a feature that only keeps the kernel
 * it is lent: how a test reads connections and sends the router what only the core sends.
 */
async function modalOf(api: Api.Client, clock: Clock = manualClock()) {
  let kernel: Kernel | undefined
  const probe: Feature = {
    id: 'probe',
    load: async (lent) => {
      kernel = lent
      return {}
    },
  }
  const config = { networks: ['eip155:31337', solanaDevnet] }
  const states: State[] = []
  const host = {
    listWallets: async (): Promise<PageWallet[]> => [],
    walletRequest: async () => {
      throw new Errors.UnsupportedMethodError()
    },
    setState: async (state: State) => void states.push(state),
    resize: async () => undefined,
    ping: async () => 'pong' as const,
  }
  const modal = Modal.create({
    config,
    storage: createStorage(memory()),
    api,
    loadRegistry: () => import('../../shared/networks.ts'),
    features: [...Features.features(config), probe],
    timers: clock.timers,
    now: clock.now,
    walletGrace: 20,
  })
  await modal.start({ host: host as unknown as Host, origin: page })
  // The visitor opened the modal (Connect) to log in.
  modal.api.open(undefined)
  if (!kernel) throw new Error('the kernel was not lent')
  const core = kernel
  return {
    modal,
    kernel: core,
    clock,
    ui: modal.ui,
    slice: () => modal.getSnapshot().embeddedWallet as Slice,
    view: () => modal.getSnapshot().view,
    /** The state the host mirrors, as last pushed. */
    state: () => states.at(-1) as State,
    request: (request: Omit<Request, 'namespace'> & { namespace?: Request['namespace'] }) =>
      modal.api.request({ namespace: 'eip155', ...request } as Request),
    /** The embedded wallet's connection of each namespace: its wallet and first address. */
    connected: () =>
      (['eip155', 'solana'] as const).map((namespace) => {
        const connection = core.connectionOf(namespace)
        return connection && { wallet: connection.wallet.id, address: connection.accounts[0]?.address }
      }),
  }
}
type Harness = Awaited<ReturnType<typeof modalOf>>

/** Resolves once `check` passes; PBKDF2 and the API take a moment. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 20 })

/** The code of the `n`th mail to `address` (1 for the first), once it arrived. */
async function codeOf(mail: Mail.Inbox, address: string, n = 1): Promise<string> {
  let code: string | undefined
  await until(async () => {
    const messages = await mail.messages(address)
    expect(messages).toHaveLength(n)
    code = messages[0]?.code
  })
  if (!code) throw new Error(`no code in the mail to ${address}`)
  return code
}

/** The session this browser keeps for the page, as the runtime stored it. */
function keptSession(): Account.Session | undefined {
  const [key] = browser.keys('embedded/session')
  const text = key === undefined ? null : browser.getItem(key)
  return text ? (JSON.parse(text) as Account.Session) : undefined
}

let serial = 0
const newAddress = () => `visitor${++serial}-${Date.now()}@mail.example`

/** Logs in by email from Connect, as the views do it, and waits for the recovery step or the connection. */
async function emailLogin(context: Harness, mail: Mail.Inbox, address: string, n = 1) {
  context.ui.sendEmailCode(address)
  await until(() => expect(context.view()).toBe(codeView))
  await context.ui.verifyEmailCode(await codeOf(mail, address, n))
}

let mail: Mail.Instance
let anvil: Anvil.Instance
let stack: Embedded.Stack
beforeAll(async () => {
  ;[mail, anvil] = await Promise.all([
    Mail.start({ smtpPort: 0, webPort: 0 }),
    closedPort().then((port) => Anvil.start({ port, chainId: 31337 })),
  ])
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  stack = await Embedded.start({
    smtp: mail.smtp,
    chains: [{ id: 'eip155:31337', name: 'Anvil', rpcUrl: anvil.rpcUrl, nativeCurrency: ether }],
  })
})
afterAll(async () => {
  await stack?.stop()
  await Promise.all([mail?.stop(), anvil?.stop()])
})

beforeEach(() => {
  browser = new BrowserStorage()
  vi.stubGlobal('localStorage', browser)
  sent.length = 0
})

describe('the email login', () => {
  it('refuses an invalid address without asking the API', async () => {
    const context = await modalOf(stack.api)
    context.ui.sendEmailCode('not an address')
    expect(context.slice().email.error).toBe('Invalid email')
    expect(context.view()).toBe('Connect')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sentTo('/v1/auth/email')).toBe(0)
  })

  it('mails a code, holds a resend back for 30 s by the kernel’s clock, and keeps the code view on a wrong code', async () => {
    const context = await modalOf(stack.api)
    const address = newAddress()
    context.ui.sendEmailCode(`  ${address} `)
    expect(context.slice().email.sending).toBe(true)
    await until(() => expect(context.view()).toBe(codeView))
    expect(context.slice().code).toMatchObject({ email: address, retryAt: context.clock.now() + 30_000 })
    const code = await codeOf(mail, address)
    expect(sentTo('/v1/auth/email')).toBe(1)

    context.clock.advance(12_300)
    context.ui.resendEmailCode()
    expect(context.slice().code.error).toBe('Please try again after 18 seconds')
    context.clock.advance(17_699)
    context.ui.resendEmailCode()
    expect(context.slice().code.error).toBe('Please try again after 1 seconds')
    expect(sentTo('/v1/auth/email')).toBe(1)

    await context.ui.verifyEmailCode(code === '000000' ? '111111' : '000000')
    expect(context.slice().code).toMatchObject({ verifying: false, error: 'Invalid code' })
    expect(context.view()).toBe(codeView)
    expect(context.slice().user).toBeUndefined()

    await context.ui.verifyEmailCode(code)
    await until(() => expect(context.view()).toBe(walletView))
    expect(context.slice().recovery).toMatchObject({ mode: 'create', busy: false })
    expect(context.slice().user).toEqual({ id: expect.any(String), email: address })
    expect(context.connected()).toEqual([undefined, undefined])
  })
})
