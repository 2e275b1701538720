/**
 * The embedded wallet's runtime in the modal's kernel, without a DOM, driven as its views drive it: the
 * runtime's `ui` actions in, the snapshot's `embeddedWallet` slice, the router's view, the kernel's
 * connections and the state mirrored on the host out. Against real parts: the Airlock API in this process
 * (PGlite, project `demo`), maildev for the mailed codes, and anvil behind the API's relay.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Config as ApiConfig, Database, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { closedPort } from '@airlock/api/testing'
import { Errors, type PageWallet, type State } from '@airlock/bridge-protocol'
import { IDBFactory } from 'fake-indexeddb'
import { type Address, createPublicClient, type Hex, http, toHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
// By path: the devnet runs the modal's build, so a package dependency would be a cycle.
import * as Anvil from '../../../../devnet/src/Anvil.ts'
import { airlockAccountFactoryAbi } from '../../../../devnet/src/aa/AirlockAccountFactoryContract.ts'
import { accountAbstraction } from '../../../../devnet/src/Chains.ts'
import * as Devnet from '../../../../devnet/src/Devnet.ts'
import * as Mail from '../../../../devnet/src/Mail.ts'
import * as Api from '../../api/Api.ts'
import type { Config } from '../../core/Config.ts'
import type { Feature, Kernel } from '../../core/Feature.ts'
import * as Modal from '../../core/Modal.ts'
import type { CoreUi } from '../../core/Snapshot.ts'
import { create as createStorage, memory } from '../../core/Storage.ts'
import * as Wrapping from '../../core/Wrapping.ts'
import * as Features from '../../features/index.ts'
import { manualClock } from '../../testing/clock.ts'
import type { Host } from '../Connector.ts'
import * as Account from './Account.ts'
import * as Embedded from './testing.ts'
import { approveView, codeView, walletView } from './views.ts'

/** The modal origin the API serves wallet shares to: the one `testing.ts` configures. */
const { modalOrigin } = Embedded
/** The dApp page the modal serves, as the handshake reported it. */
const page = 'http://localhost:5173'
const solanaDevnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const password = 'correct horse battery staple'

// ---- the browser the modal's frame runs in ----

/** Every request the frame sent, as `METHOD /path`. */
const sent: string[] = []
const sentTo = (path: string) => sent.filter((line) => line.endsWith(` ${path}`)).length
const realFetch = globalThis.fetch
/** A JSON-RPC method whose calls wait until the test lets them go, as a slow node's do. */
let slow: { method: string; waiting: number; release(): void; go: Promise<void> } | undefined
function slowDown(method: string) {
  let release = () => {}
  const go = new Promise<void>((resolve) => {
    release = resolve
  })
  slow = { method, waiting: 0, release, go }
  return slow
}
/**
 * A browser adds `Origin` to the frame's cross-origin calls by itself; Node's fetch does not, and the API
 * serves wallet shares to the modal origin only. The runtime builds its API client on the global fetch and
 * takes none of its own, so the global is wrapped, before any modal is built, to send what a browser sends.
 */
const fromModalFrame: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  sent.push(`${init?.method ?? 'GET'} ${url.pathname}`)
  const headers = new Headers(init?.headers)
  headers.set('Origin', modalOrigin)
  const held = slow
  if (held && typeof init?.body === 'string' && init.body.includes(`"method":"${held.method}"`)) {
    held.waiting++
    return held.go.then(() => realFetch(input, { ...init, headers }))
  }
  return realFetch(input, { ...init, headers })
}

/** The modal origin's `localStorage` in a browser that lets the frame keep it (the session, the share). */
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
  /** The keys that hold `part`. */
  keys = (part: string) => [...this.#items.keys()].filter((key) => key.includes(part))
}
let browser: BrowserStorage

/** A browser of its own for the next modal: nothing kept, nothing sent yet. */
function newBrowser() {
  browser = new BrowserStorage()
  vi.stubGlobal('localStorage', browser)
  sent.length = 0
}

/** The session the frame keeps for the page, as the runtime stored it. */
function keptSession(): Account.Session | undefined {
  const [key] = browser.keys('embedded/session')
  const text = key === undefined ? null : browser.getItem(key)
  return text ? (JSON.parse(text) as Account.Session) : undefined
}

// ---- the modal ----

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

/** What the core's and the embedded wallet's views may do. */
type Ui = CoreUi & {
  sendEmailCode(address: string): void
  resendEmailCode(): void
  verifyEmailCode(code: string): Promise<void>
  socialLogin(provider: string): void
  submitRecovery(password: string): Promise<void>
  approveRequest(): Promise<void>
  rejectRequest(): void
}

/**
 * The modal as `compose.ts` builds it, on the real API's client, with one more feature that only keeps the
 * kernel it is lent: how the test reads connections and sends the router what only the core sends. Started
 * with a host that has no wallets of its own, then opened on Connect, as a visitor opens it to log in.
 */
async function modalOf(
  api: Api.Client,
  clock: Clock = manualClock(Date.now()),
  hostConfig: Omit<Config, 'networks'> = {},
) {
  let lent: Kernel | undefined
  const probe: Feature = {
    id: 'probe',
    load: async (kernel) => {
      lent = kernel
      return {}
    },
  }
  const config: Config = { networks: ['eip155:31337', solanaDevnet], ...hostConfig }
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
  modal.api.open(undefined)
  if (!lent) throw new Error('the kernel was not lent')
  const kernel = lent
  return {
    modal,
    kernel,
    clock,
    ui: modal.ui as Ui,
    slice: () => modal.getSnapshot().embeddedWallet as Slice,
    view: () => modal.getSnapshot().view,
    isOpen: () => modal.getSnapshot().open,
    /** The state the host mirrors, as last pushed. */
    state: () => states.at(-1) as State,
    /** Every state pushed to the host, in order. */
    states: () => [...states],
    /** A dApp's EIP-1193 request, as the host passes it on. */
    request: async (method: string, params?: unknown[]): Promise<unknown> =>
      modal.api.request({ namespace: 'eip155', method, ...(params ? { params } : {}) }),
    /** The kernel's connection of each namespace: its wallet and first address. */
    connected: () =>
      (['eip155', 'solana'] as const).map((namespace) => {
        const connection = kernel.connectionOf(namespace)
        return connection && { wallet: connection.wallet.id, address: connection.accounts[0]?.address }
      }),
  }
}
type Harness = Awaited<ReturnType<typeof modalOf>>

/** Resolves once `check` passes: PBKDF2 and the API take a moment. */
const until = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 20 })

/** The code in the `n`th mail to `address` (1 for the first), once it arrived. */
async function codeOf(inbox: Mail.Inbox, address: string, n = 1): Promise<string> {
  let code: string | undefined
  await until(async () => {
    const messages = await inbox.messages(address)
    expect(messages).toHaveLength(n)
    code = messages[0]?.code
  })
  if (!code) throw new Error(`no code in the mail to ${address}`)
  return code
}

let serial = 0
const newAddress = () => `visitor${++serial}-${Date.now()}@mail.example`

/** Logs in by email from Connect, as the views do it: the address, then the code of the `n`th mail. */
async function emailLogin(context: Harness, address: string, n = 1) {
  context.ui.sendEmailCode(address)
  await until(() => expect(context.view()).toBe(codeView))
  await context.ui.verifyEmailCode(await codeOf(mail, address, n))
}

/** The first login's last step: the recovery password creates the wallet, and it connects. */
async function createWallet(context: Harness) {
  await until(() => expect(context.slice().recovery?.mode).toBe('create'))
  await context.ui.submitRecovery(password)
  await until(() => expect(context.connected().every(Boolean)).toBe(true))
}

/** A new visitor's first email login, which creates their wallet: their address and the accounts connected. */
async function newVisitor(context: Harness) {
  const address = newAddress()
  await emailLogin(context, address)
  await createWallet(context)
  return { address, addresses: context.connected() }
}

/**
 * A later login of `address` on the same modal (the `n`th code), past the product's 30 s (docs/behaviour.md §9) on the API's clock too: this
 * browser's share opens the wallet with no recovery password, at the `addresses` it had.
 */
async function loginAgain(context: Harness, address: string, addresses: unknown[], n = 2) {
  context.clock.advance(30_000)
  context.modal.api.open(undefined)
  await emailLogin(context, address, n)
  await until(() => expect(context.connected().every(Boolean)).toBe(true))
  expect(context.connected()).toEqual(addresses)
  expect(context.slice().recovery).toBeUndefined()
}

/** What a request to the modal ended with: its result, or its error's code and message. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    (result) => ({ result }),
    (error: unknown) => ({ code: Errors.codeOf(error), message: Errors.messageOf(error, '') }),
  )

// ---- the API ----

/**
 * An API of the test's own, for what `testing.ts` does not offer: a data folder on disk (so a second
 * instance finds what the first wrote), a given port and configuration (so it stands in for the first at
 * the same address), and a clock (the kernel's, so the test can pass the API's 30 s throttle).
 */
async function serve(
  options: { dataDir?: string; port?: number; config?: ApiConfig.Config; now?: () => number } = {},
) {
  const port = options.port ?? (await closedPort())
  const config: ApiConfig.Config = options.config ?? {
    apiUrl: `http://127.0.0.1:${port}`,
    modalOrigin,
    chains: [],
    email: { smtp: mail.smtp, from: 'login@airlock.example', secret: randomBytes(24).toString('base64') },
    wallet: { key: randomBytes(32).toString('hex') },
  }
  const db = await (options.dataDir
    ? Database.open({ url: undefined, dataDir: options.dataDir })
    : memoryDatabase())
  await Projects.add(db, 'demo', ['http://localhost:*'])
  const running = await Service.listen(Service.create({ db, config, now: options.now }), { apiPort: port })
  const api = Api.create({ baseUrl: running.apiUrl, projectId: 'demo' })
  return {
    api,
    account: Account.create({ endpoint: api.endpoint }),
    config,
    port,
    async stop() {
      await running.stop()
      await db.close()
    },
  }
}

const anvilRpc = async (method: string, params: unknown[] = []) => {
  const response = await realFetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

let mail: Mail.Instance
let anvil: Anvil.Instance
let stack: Embedded.Stack
beforeAll(async () => {
  vi.stubGlobal('fetch', fromModalFrame)
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
  vi.unstubAllGlobals()
})

describe('the email login', () => {
  beforeEach(newBrowser)

  it('refuses an invalid address without asking the API', async () => {
    const context = await modalOf(stack.api)
    context.ui.sendEmailCode('not an address')
    expect(context.slice().email).toMatchObject({ sending: false, error: 'Invalid email' })
    expect(context.view()).toBe('Connect')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sentTo('/v1/auth/email')).toBe(0)
  })

  it('mails a code, holds a resend back for 30 s, keeps the code view on a wrong code, and creates the wallet with the right one', async () => {
    const context = await modalOf(stack.api)
    const address = newAddress()
    context.ui.sendEmailCode(`  ${address} `)
    expect(context.slice().email.sending).toBe(true)
    await until(() => expect(context.view()).toBe(codeView))
    expect(context.slice().code).toMatchObject({ email: address, retryAt: context.clock.now() + 30_000 })
    const code = await codeOf(mail, address)
    expect(sentTo('/v1/auth/email')).toBe(1)

    // The product's throttle (docs/behaviour.md §5) by the kernel's clock, the seconds rounded up, and the API not asked.
    context.clock.advance(12_300)
    context.ui.resendEmailCode()
    expect(context.slice().code.error).toBe('Please try again after 18 seconds')
    context.clock.advance(17_699)
    context.ui.resendEmailCode()
    expect(context.slice().code.error).toBe('Please try again after 1 seconds')
    expect(sentTo('/v1/auth/email')).toBe(1)

    await context.ui.verifyEmailCode(code === '000000' ? '111111' : '000000')
    expect(context.slice().code).toMatchObject({ verifying: false, error: 'Invalid code' })
    expect(context.modal.getSnapshot().shake).toBe(true)
    expect(context.view()).toBe(codeView)
    expect(context.slice().user).toBeUndefined()

    await context.ui.verifyEmailCode(code)
    await until(() => expect(context.view()).toBe(walletView))
    expect(context.slice().recovery).toMatchObject({ mode: 'create', busy: false })
    expect(context.slice().user).toEqual({ id: expect.any(String), email: address })
    expect(context.connected()).toEqual([undefined, undefined])
    const session = keptSession()
    if (!session) return expect.fail('no session kept')

    // The view asks for 10 characters; the runtime, given fewer, creates nothing either.
    vi.spyOn(console, 'error').mockImplementationOnce(() => {})
    await context.ui.submitRecovery('too short')
    expect(context.slice().recovery).toMatchObject({ mode: 'create', busy: false, error: expect.any(String) })
    expect(context.view()).toBe(walletView)
    expect(await stack.account.wallet(session.token)).toBeUndefined()
    expect(browser.keys('embedded/share/')).toEqual([])

    await context.ui.submitRecovery(password)
    await until(() => expect(context.connected().every(Boolean)).toBe(true))
    const stored = await stack.account.wallet(session.token)
    if (!stored) return expect.fail('no wallet stored')
    // This anvil has not the account-abstraction contracts: the smart account the product prefers falls back
    // to the key's own account (the chain with them is 'the smart account' below).
    expect(context.connected()).toEqual([
      { wallet: 'embedded', address: stored.addresses.eip155 },
      { wallet: 'embedded', address: stored.addresses.solana },
    ])
    expect(context.slice().recovery).toBeUndefined()
    expect(browser.keys('embedded/share/')).toHaveLength(1)
    await until(() => expect(context.state().status).toBe('connected'))
    expect(context.state()).toMatchObject({
      user: { email: address, authProvider: 'email', preferredAccountType: 'smartAccount' },
      namespaces: {
        eip155: { chainId: 'eip155:31337', accounts: [{ address: stored.addresses.eip155 }] },
        solana: { chainId: solanaDevnet, accounts: [{ address: stored.addresses.solana }] },
      },
    })
    expect(context.state().user).toEqual({
      email: address,
      authProvider: 'email',
      preferredAccountType: 'smartAccount',
    })
  })

  it('says when the mail server is down, throttles nothing, and mails the same address at once when it is back', async () => {
    const port = await closedPort()
    const down = await Embedded.start({ smtp: { host: '127.0.0.1', port, requireTLS: false } })
    let back: Mail.Instance | undefined
    try {
      const context = await modalOf(down.api)
      const address = newAddress()
      context.ui.sendEmailCode(address)
      await until(() => expect(context.slice().email.sending).toBe(false))
      expect(context.slice().email.error).toBe('The email could not be sent. Try again.')
      expect(context.view()).toBe('Connect')
      expect(context.slice().code).toMatchObject({ email: '', retryAt: 0 })

      back = await Mail.start({ smtpPort: port, webPort: 0 })
      context.ui.sendEmailCode(address)
      await until(() => expect(context.view()).toBe(codeView))
      expect(context.slice().email.error).toBeUndefined()
      expect(sentTo('/v1/auth/email')).toBe(2)
      expect(await codeOf(back, address)).toMatch(/^\d{6}$/)
    } finally {
      await down.stop()
      await back?.stop()
    }
  })

  it('takes a code mailed by one API instance at the next one over the same database', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'airlock-runtime-'))
    const first = await serve({ dataDir })
    let second: Awaited<ReturnType<typeof serve>> | undefined
    try {
      const context = await modalOf(first.api)
      const address = newAddress()
      context.ui.sendEmailCode(address)
      await until(() => expect(context.view()).toBe(codeView))
      const code = await codeOf(mail, address)

      await first.stop()
      second = await serve({ dataDir, port: first.port, config: first.config })
      await context.ui.verifyEmailCode(code)
      await createWallet(context)
      const session = keptSession()
      if (!session) return expect.fail('no session kept')
      expect(await second.account.me(session.token)).toEqual({ id: session.user.id, email: address })
      expect((await second.account.wallet(session.token))?.addresses.eip155).toBe(
        context.connected()[0]?.address,
      )
    } finally {
      await second?.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('resending the code', () => {
  beforeEach(newBrowser)

  it('mails a new code once the product’s 30 s (docs/behaviour.md §9) have passed, says so in the code view, and the new code logs in', async () => {
    const clock = manualClock(Date.now())
    const own = await serve({ now: clock.now })
    try {
      const context = await modalOf(own.api, clock)
      const address = newAddress()
      context.ui.sendEmailCode(address)
      await until(() => expect(context.view()).toBe(codeView))
      await codeOf(mail, address)

      // 30 s on the kernel's clock (and the API's): the throttle has passed, on both sides.
      clock.advance(30_000)
      context.ui.resendEmailCode()
      await until(() => expect(context.slice().code.notice).toBe('A new code is on its way.'))
      expect(context.slice().code).toMatchObject({
        error: undefined,
        email: address,
        retryAt: clock.now() + 30_000,
      })
      expect(context.view()).toBe(codeView)
      expect(sentTo('/v1/auth/email')).toBe(2)
      await context.ui.verifyEmailCode(await codeOf(mail, address, 2))
      await createWallet(context)
      expect(context.slice().user).toEqual({ id: expect.any(String), email: address })
    } finally {
      await own.stop()
    }
  })
})

describe('the social login', () => {
  beforeEach(newBrowser)

  it('names the social provider in the state the host mirrors, beside authProvider', async () => {
    const context = await modalOf(stack.api)
    // The frame's window, as much as a social login uses: it opens the login window and hears from it.
    const popup = {
      closed: false,
      close() {
        popup.closed = true
      },
    }
    const opened: string[] = []
    const frame = Object.assign(new EventTarget(), {
      location: { origin: modalOrigin },
      open(url: string) {
        opened.push(url)
        return popup
      },
    })
    Object.assign(globalThis, { window: frame })
    try {
      context.ui.socialLogin('google')
      const [start = ''] = opened
      // The login window's pages are the browser's navigations, not the frame's calls.
      vi.stubGlobal('fetch', realFetch)
      const handoff = await stack
        .handoff(start, 'grace')
        .finally(() => vi.stubGlobal('fetch', fromModalFrame))
      const data = { type: 'airlock:social', handoff }
      frame.dispatchEvent(Object.assign(new Event('message'), { data, origin: modalOrigin, source: popup }))
      await createWallet(context)
    } finally {
      delete (globalThis as { window?: unknown }).window
    }
    await until(() => expect(context.state().status).toBe('connected'))
    expect(context.state().user).toEqual({
      email: context.slice().user?.email,
      authProvider: 'google',
      socialProvider: 'google',
      preferredAccountType: 'smartAccount',
    })
    expect(context.slice().user?.email).toMatch(/^grace-\d+@google\.test$/)
  })
})

describe('the account type', () => {
  beforeEach(newBrowser)

  it('follows the host’s preferredAccountTypes.eip155 (the email login above shows the product’s default, docs/behaviour.md §1)', async () => {
    const context = await modalOf(stack.api, undefined, { preferredAccountTypes: { eip155: 'eoa' } })
    await emailLogin(context, newAddress())
    await createWallet(context)
    await until(() => expect(context.state().status).toBe('connected'))
    expect(context.state().user?.preferredAccountType).toBe('eoa')
  })
})

describe('the smart account', () => {
  let devnet: Devnet.Instance
  let aa: Embedded.Stack
  beforeAll(async () => {
    // The devnet's chain A: anvil with the ERC-4337 EntryPoints and the account factory deployed.
    devnet = await Devnet.start({ ports: [0, 0] })
    const { rpcUrl } = devnet.chains[0]
    const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
    aa = await Embedded.start({
      smtp: mail.smtp,
      chains: [{ id: 'eip155:31337', name: 'Anvil', rpcUrl, nativeCurrency: ether }],
    })
  })
  afterAll(async () => {
    await aa?.stop()
    await devnet?.stop()
  })
  beforeEach(newBrowser)

  /** The account the devnet's factory names for `owner` (salt 0), read from the chain. */
  const factoryAccount = (owner: Address) =>
    createPublicClient({ transport: http(devnet.chains[0].rpcUrl) }).readContract({
      address: accountAbstraction.accountFactory,
      abi: airlockAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, 0n],
    })

  it('is the account the factory names for the wallet’s key where the chain has the contracts (the product’s default type, docs/behaviour.md §1)', async () => {
    const context = await modalOf(aa.api)
    await emailLogin(context, newAddress())
    await createWallet(context)
    await until(() => expect(context.state().status).toBe('connected'))
    const session = keptSession()
    if (!session) return expect.fail('no session kept')
    const stored = await aa.account.wallet(session.token)
    if (!stored) return expect.fail('no wallet stored')
    const smart = await factoryAccount(stored.addresses.eip155 as Address)
    expect(smart).not.toBe(stored.addresses.eip155)
    expect(context.connected()[0]).toEqual({ wallet: 'embedded', address: smart })
    expect(context.state()).toMatchObject({
      user: { preferredAccountType: 'smartAccount' },
      namespaces: { eip155: { chainId: 'eip155:31337', accounts: [{ address: smart }] } },
    })
  })

  it('is the key’s own account on the same chain when the host prefers an EOA', async () => {
    const context = await modalOf(aa.api, undefined, { preferredAccountTypes: { eip155: 'eoa' } })
    await emailLogin(context, newAddress())
    await createWallet(context)
    await until(() => expect(context.state().status).toBe('connected'))
    const stored = await aa.account.wallet(keptSession()?.token ?? '')
    expect(context.connected()[0]).toEqual({ wallet: 'embedded', address: stored?.addresses.eip155 })
  })
})

describe('the EVM account in the state the host mirrors', () => {
  beforeEach(newBrowser)

  // The host answers a dApp's eth_accounts from the mirrored state once its status is connected. Solana's
  // account is known at once; the smart account's address takes chain reads (here held at the node).
  it('is there in every state that says connected, even while the smart account’s address is worked out', async () => {
    const context = await modalOf(stack.api)
    await emailLogin(context, newAddress())
    await until(() => expect(context.slice().recovery?.mode).toBe('create'))
    const node = slowDown('eth_getCode')
    try {
      await context.ui.submitRecovery(password)
      await until(() => expect(node.waiting).toBeGreaterThan(0))
      // A moment for anything that does not wait on the node to reach the host.
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(context.connected()).toEqual([undefined, undefined])
      expect(context.state().status).not.toBe('connected')
    } finally {
      slow = undefined
      node.release()
    }
    await until(() => expect(context.connected().every(Boolean)).toBe(true))
    await until(() => expect(context.state().status).toBe('connected'))
    const evm = context.connected()[0]?.address
    const connected = context.states().filter((state) => state.status === 'connected')
    expect(connected.length).toBeGreaterThan(0)
    for (const state of connected) expect(state.namespaces.eip155?.accounts).toEqual([{ address: evm }])
  })
})

describe('a login whose wallet does not open', () => {
  beforeEach(newBrowser)
  const initFailed = 'A problem occurred while trying initialize authentication'

  it('says the product’s words (docs/behaviour.md §8) where the failure has none, forgets and ends the session, and keeps this browser’s share', async () => {
    const clock = manualClock(Date.now())
    const own = await serve({ now: clock.now })
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const context = await modalOf(own.api, clock)
      const address = newAddress()
      await emailLogin(context, address)
      await createWallet(context)
      await context.kernel.disconnect()
      const shares = browser.keys('embedded/share/')
      expect(shares).toHaveLength(1)

      // This browser's WebCrypto refuses as the wallet opens: a failure with no words for the visitor.
      clock.advance(30_000)
      context.modal.api.open(undefined)
      sent.length = 0
      const refused = new DOMException('The operation is not supported.', 'NotSupportedError')
      const importKey = vi.spyOn(crypto.subtle, 'importKey').mockRejectedValue(refused)
      try {
        await emailLogin(context, address, 2)
      } finally {
        importKey.mockRestore()
      }
      expect(logged).toHaveBeenCalledWith('[airlock]', initFailed, refused)
      expect(context.view()).toBe(codeView)
      expect(context.slice().code).toMatchObject({ verifying: false, opening: false, error: initFailed })
      expect(context.modal.getSnapshot().shake).toBe(true)
      expect(keptSession()).toBeUndefined()
      expect(context.slice().user).toBeUndefined()
      expect(context.connected()).toEqual([undefined, undefined])
      await until(() => expect(sentTo('/v1/auth/logout')).toBe(1))
      expect(browser.keys('embedded/share/')).toEqual(shares)

      // Nothing was left half-done: the next login opens the wallet with this browser's share.
      clock.advance(30_000)
      await emailLogin(context, address, 3)
      await until(() => expect(context.connected().every(Boolean)).toBe(true))
      expect(context.slice().recovery).toBeUndefined()
      expect(keptSession()?.user.email).toBe(address)
    } finally {
      logged.mockRestore()
      await own.stop()
    }
  })

  it('says the API’s words, and ends what an earlier login left connected', async () => {
    const clock = manualClock(Date.now())
    const dataDir = await mkdtemp(join(tmpdir(), 'airlock-runtime-'))
    const first = await serve({ dataDir, now: clock.now })
    let second: Awaited<ReturnType<typeof serve>> | undefined
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const context = await modalOf(first.api, clock)
      const address = newAddress()
      await emailLogin(context, address)
      await createWallet(context)

      // The API is back with another wallet.key: the auth share it holds opens no more (a 500 that says so).
      await first.stop()
      const config = { ...first.config, wallet: { key: randomBytes(32).toString('hex') } }
      second = await serve({ dataDir, port: first.port, config, now: clock.now })
      clock.advance(30_000)
      context.modal.api.open(undefined)
      sent.length = 0
      await emailLogin(context, address, 2)
      const said = 'The auth share does not open with the configured wallet key'
      expect(logged).toHaveBeenCalledWith('[airlock]', initFailed, expect.objectContaining({ message: said }))
      // The wallet of the login before is let go, and with it the Account view: the message is a snack.
      expect(context.connected()).toEqual([undefined, undefined])
      expect(context.state().status).toBe('disconnected')
      expect(context.state().user).toBeUndefined()
      expect(context.view()).toBe('Connect')
      context.clock.advance(150) // the snackbar's swap, docs/behaviour.md §9
      expect(context.modal.getSnapshot().snackbar).toMatchObject({ variant: 'error', message: said })
      expect(keptSession()).toBeUndefined()
      expect(context.slice().user).toBeUndefined()
      await until(() => expect(sentTo('/v1/auth/logout')).toBe(1))
    } finally {
      logged.mockRestore()
      await second?.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('requests to the embedded wallet', () => {
  let context: Harness
  let me: Address
  beforeAll(async () => {
    newBrowser()
    context = await modalOf(stack.api)
    await emailLogin(context, newAddress())
    await createWallet(context)
    me = context.connected()[0]?.address as Address
    context.modal.api.close(undefined)
    expect(context.isOpen()).toBe(false)
  })

  const sign = (message: string) => outcome(context.request('personal_sign', [toHex(message), me]))
  const shown = () => context.slice().approval

  it('opens ApproveTransaction for personal_sign, holds the host’s close, and closes again on reject with 4001', async () => {
    const signing = sign('Hello from the dApp')
    await until(() => expect(context.view()).toBe(approveView))
    expect(context.isOpen()).toBe(true)
    expect(shown()).toMatchObject({
      origin: page,
      busy: false,
      pending: 1,
      description: { title: 'Sign a message', message: { text: 'Hello from the dApp' } },
    })
    // docs/behaviour.md §2: closing is blocked while ApproveTransaction shows.
    context.modal.api.close(undefined)
    expect(context.view()).toBe(approveView)

    context.ui.rejectRequest()
    expect(await signing).toEqual({ code: 4001, message: 'User rejected the request.' })
    expect(context.isOpen()).toBe(false)
    expect(shown()).toBeUndefined()
  })

  it('signs on approve with the wallet’s key, then closes', async () => {
    const signing = sign('Sign in to the shop')
    await until(() => expect(context.view()).toBe(approveView))
    void context.ui.approveRequest()
    const answer = await signing
    if (!('result' in answer)) return expect.fail(`refused: ${answer.message}`)
    const signature = answer.result as Hex
    expect(await verifyMessage({ address: me, message: 'Sign in to the shop', signature })).toBe(true)
    expect(context.isOpen()).toBe(false)
  })

  it('shows queued requests one after the other, and closes after the last', async () => {
    const first = sign('first')
    const second = sign('second')
    await until(() => expect(shown()?.pending).toBe(2))
    expect(shown()?.description).toMatchObject({ message: { text: 'first' } })

    void context.ui.approveRequest()
    expect(await first).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]{130}$/) })
    expect(context.view()).toBe(approveView)
    expect(context.isOpen()).toBe(true)
    expect(shown()).toMatchObject({ pending: 1, description: { message: { text: 'second' } } })

    context.ui.rejectRequest()
    expect(await second).toMatchObject({ code: 4001 })
    expect(context.isOpen()).toBe(false)
  })

  it('rejects everything waiting with 4001 when the modal is closed by force, and keeps none of it', async () => {
    const first = sign('one')
    const second = sign('two')
    await until(() => expect(shown()?.pending).toBe(2))
    context.kernel.router.send({ type: 'CLOSE', force: true })
    expect(await first).toMatchObject({ code: 4001 })
    expect(await second).toMatchObject({ code: 4001 })
    expect(context.isOpen()).toBe(false)
    expect(shown()).toBeUndefined()

    const next = sign('three')
    await until(() =>
      expect(shown()).toMatchObject({ pending: 1, description: { message: { text: 'three' } } }),
    )
    context.ui.rejectRequest()
    expect(await next).toMatchObject({ code: 4001 })
  })

  it('pushes the view over an open modal; going back rejects what waits and returns there', async () => {
    context.modal.api.open(undefined)
    expect(context.view()).toBe('Account')
    const signing = sign('from the account view')
    await until(() => expect(context.view()).toBe(approveView))
    expect(context.modal.getSnapshot().canGoBack).toBe(true)
    context.ui.back()
    expect(await signing).toMatchObject({ code: 4001 })
    expect(context.view()).toBe('Account')
    expect(context.isOpen()).toBe(true)
    context.modal.api.close(undefined)
  })

  it('opens for a disallowed method, says so only after 300 ms, and rejects with 4200', async () => {
    // The account's balance snack (the API relays no Solana chain here) has had its time on the kernel's clock.
    context.clock.advance(2_500) // the snackbar's auto-close, docs/behaviour.md §9
    expect(context.modal.getSnapshot().snackbar).toBeUndefined()
    // Approvals.ts waits the 300 ms on the kernel's clock, which `wait` moves; the global timers are faked
    // only so that `advanceTimersByTimeAsync` lets the request's promises settle between steps.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const wait = async (ms: number) => {
      context.clock.advance(ms)
      await vi.advanceTimersByTimeAsync(ms)
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const tracing = outcome(context.request('debug_traceCall', [{ to: me }, 'latest']))
      await wait(0)
      expect(context.isOpen()).toBe(true)
      expect(logged).toHaveBeenCalledWith('Requested RPC call is not allowed')
      await wait(299)
      expect(context.modal.getSnapshot().snackbar).toBeUndefined()
      await wait(1)
      expect(context.modal.getSnapshot().snackbar).toMatchObject({
        variant: 'error',
        message: 'Action not allowed',
      })
      expect(await tracing).toEqual({ code: 4200, message: 'Action not allowed' })
      expect(context.view()).not.toBe(approveView)
    } finally {
      vi.useRealTimers()
      logged.mockRestore()
      context.modal.api.close(undefined)
    }
  })

  it('answers eth_chainId, eth_accounts and eth_blockNumber (through the API’s relay) without asking the visitor', async () => {
    expect(await context.request('eth_chainId')).toBe('0x7a69')
    expect(await context.request('eth_accounts')).toEqual([me])
    await anvilRpc('evm_mine')
    const block = await anvilRpc('eth_blockNumber')
    sent.length = 0
    expect(await context.request('eth_blockNumber')).toBe(block)
    expect(sentTo('/v1/rpc/eip155:31337')).toBe(1)
    expect(context.isOpen()).toBe(false)
    expect(shown()).toBeUndefined()
  })

  // Closing with an empty stack rejects what waits (docs/behaviour.md §2): a request whose preview is still being worked
  // out waits too, and must not open the modal again once it is ready.
  it('rejects with 4001 a request still being previewed when the modal closes, and never shows it', async () => {
    const node = slowDown('eth_simulateV1')
    context.modal.api.open(undefined)
    const sending = outcome(
      context.request('eth_sendTransaction', [
        { from: me, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
      ]),
    )
    try {
      await until(() => expect(node.waiting).toBe(1))
      expect(context.view()).toBe('Account')
      context.modal.api.close(undefined)
      const settled = await Promise.race([
        sending,
        new Promise((resolve) => setTimeout(resolve, 500, 'pending')),
      ])
      expect(settled).toEqual({ code: 4001, message: 'User rejected the request.' })
    } finally {
      slow = undefined
      node.release()
    }
    // The node answers after all, and the preview's 3 s pass: nothing shows.
    await new Promise((resolve) => setTimeout(resolve, 100))
    context.clock.advance(3_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(context.isOpen()).toBe(false)
    expect(shown()).toBeUndefined()
  })

  // A host's open() must not replace ApproveTransaction: the request would wait unseen, and every later one
  // queue behind it unseen.
  it('keeps a waiting request in view when the host opens the modal elsewhere', async () => {
    const first = sign('waiting')
    await until(() => expect(context.view()).toBe(approveView))
    context.modal.api.open({ view: 'Account' })
    const second = sign('queued')
    try {
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(context.view()).toBe(approveView)
      expect(shown()).toMatchObject({ pending: 2, description: { message: { text: 'waiting' } } })
    } finally {
      context.kernel.router.send({ type: 'CLOSE', force: true })
      await Promise.all([first, second])
    }
  })

  // Leaving the view while an approved transaction is being sent must not tell the dApp 4001 while the
  // transaction goes on chain, nor let its late answer drop the next request from the queue unanswered.
  it('answers an approved transaction that is sent after the visitor left, and then shows the next request', async () => {
    await anvilRpc('anvil_setBalance', [me, toHex(10n ** 18n)])
    const nonce = async () => Number(await anvilRpc('eth_getTransactionCount', [me, 'latest']))
    const before = await nonce()
    context.modal.api.open(undefined)
    const sending = outcome(
      context.request('eth_sendTransaction', [
        { from: me, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
      ]),
    )
    await until(() => expect(context.view()).toBe(approveView))
    void context.ui.approveRequest()
    expect(shown()?.busy).toBe(true)
    context.ui.back()
    const later = sign('after')
    // The approved transaction went out whatever the visitor did next.
    await until(async () => expect(await nonce()).toBe(before + 1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    try {
      expect(await sending).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
      await until(() =>
        expect(shown()).toMatchObject({ pending: 1, description: { message: { text: 'after' } } }),
      )
    } finally {
      context.kernel.router.send({ type: 'CLOSE', force: true })
      const settled = await Promise.race([
        later,
        new Promise((resolve) => setTimeout(resolve, 500, 'pending')),
      ])
      expect(settled).toMatchObject({ code: 4001 })
    }
  })
})

describe('signing out', () => {
  beforeEach(newBrowser)

  it('ends the session with the last namespace, keeps this browser’s share, and the next login needs no password', async () => {
    const clock = manualClock(Date.now())
    const own = await serve({ now: clock.now })
    try {
      const context = await modalOf(own.api, clock)
      const { address, addresses } = await newVisitor(context)
      const session = keptSession()
      if (!session) return expect.fail('no session kept')
      const [shareKey = ''] = browser.keys('embedded/share/')
      const share = browser.getItem(shareKey)
      expect(share).toBeTruthy()

      // One namespace let go keeps the login for the other.
      await context.kernel.disconnect('eip155')
      expect(context.connected()).toEqual([undefined, addresses[1]])
      expect(await own.account.me(session.token)).toEqual(session.user)

      await context.kernel.disconnect('solana')
      expect(context.connected()).toEqual([undefined, undefined])
      await expect(own.account.me(session.token)).rejects.toMatchObject({ status: 401 })
      expect(keptSession()).toBeUndefined()
      expect(context.slice().user).toBeUndefined()
      expect(context.state().user).toBeUndefined()
      expect(browser.getItem(shareKey)).toBe(share)

      await loginAgain(context, address, addresses)
      expect(keptSession()?.token).not.toBe(session.token)
    } finally {
      await own.stop()
    }
  })
})

describe('what this browser keeps, where the modal origin has IndexedDB', () => {
  beforeEach(newBrowser)

  it('is wrapped: neither the bearer token nor the share is in localStorage, and the next login opens the wallet with them', async () => {
    const idb = new IDBFactory()
    vi.stubGlobal('indexedDB', idb)
    const clock = manualClock(Date.now())
    const own = await serve({ now: clock.now })
    try {
      const context = await modalOf(own.api, clock)
      const { address, addresses } = await newVisitor(context)
      const kept = () => browser.keys('embedded/').map((name) => [name, browser.getItem(name) ?? ''] as const)
      await until(() => expect(kept().map(([, value]) => Wrapping.isWrapped(value))).toEqual([true, true]))
      // What they are, as only script of the modal origin can learn it: through the key it cannot export.
      const key = (await Wrapping.key(idb)) ?? expect.fail('no wrapping key')
      const opened = async (part: string) => {
        const [name, value] = kept().find(([at]) => at.includes(part)) ?? expect.fail(`nothing at ${part}`)
        return Wrapping.unwrap(key, name, value)
      }
      const { token } = JSON.parse(await opened('embedded/session')) as Account.Session
      const share = await opened('embedded/share/')
      const dump = JSON.stringify(kept())
      expect(dump).not.toContain(token)
      expect(dump).not.toContain(share)
      expect(await own.account.me(token)).toMatchObject({ email: address })

      // Signed out and back in: this browser's share, unwrapped, opens the wallet without the password.
      await context.kernel.disconnect()
      await loginAgain(context, address, addresses)
    } finally {
      vi.stubGlobal('indexedDB', undefined)
      await own.stop()
    }
  })
})
