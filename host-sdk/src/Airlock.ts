import type { Errors, PublicView, Session, State } from '@airlock/bridge-protocol'
import { type Deferred, deferred } from '@airlock/bridge-protocol/Async'
import type { Timeouts } from '@airlock/bridge-protocol/Messenger'
import type { Request } from '@airlock/bridge-protocol/Schema'
import type { Wallet } from '@wallet-standard/base'
import type { Remote } from './internal/bridge.ts'
import { type Eip1193Provider, eip1193 } from './internal/eip1193.ts'
import { type Frame, mountFrame } from './internal/frame.ts'
import { loadBridge } from './internal/loadBridge.ts'
import { own } from './internal/registry.ts'
import { registerWallet, standardWallet } from './internal/walletStandard.ts'

/** Options of {@link createAirlock}. */
export type AirlockOptions = {
  /** Your project's id; the modal checks your page's origin against the project's allow-list. */
  projectId: string
  /** Origin (and path) the modal is served from. @default the origin of the `<script>` that loaded Airlock */
  modalUrl?: string
  /** CAIP-2 ids of the networks your dApp supports, the first one preferred. */
  networks: string[]
  /** RPC URL per CAIP-2 id, overriding the modal's defaults. */
  rpcUrls?: Record<string, string>
  /** @default the visitor's preference */
  themeMode?: 'light' | 'dark'
  /** CSS variables for the modal, keys starting with `--airlock-`. */
  themeVariables?: Record<string, string>
  /**
   * Feature switches by name (`{ allWallets: false }`; a feature left out keeps its default) and orders
   * (`{ connectorTypeOrder: ['walletConnect', 'recent', 'injected', 'featured', 'recommended'] }`).
   */
  features?: Record<string, boolean | string[]>
  /** Render inline in this element (or the element this selector finds) instead of as a modal. */
  embedded?: HTMLElement | string
  /** Time-outs in ms. @default { load: 20_000, request: 30_000 } */
  timeouts?: Partial<Timeouts>
  /** Called when the modal frame fails to load or a call times out. */
  onTimeout?: (reason: Errors.TimeoutReason) => void
  /** Announce the EIP-1193 provider through EIP-6963. @default true */
  announce?: boolean
  /** Your WalletConnect project id; without it, WalletConnect (QR code, phone wallets) is off. */
  walletConnectProjectId?: string
  /** The WalletConnect relay. @default 'wss://relay.walletconnect.org' */
  relayUrl?: string
  /** Registry ids of wallets to show first on Connect. */
  featuredWalletIds?: string[]
  /** Registry ids of wallets never to show. */
  excludeWalletIds?: string[]
  /** Sign in with Ethereum (EIP-4361) after connecting an EVM wallet. The older of the two sign-in options. */
  siweConfig?: SignInOptions
  /** Sign in with any connected account: EIP-4361 for EVM, CAIP-122 for Solana and Bitcoin. */
  siwx?: SignInOptions
}

/** Sign-in options; sessions are issued and verified by the Airlock API. */
export type SignInOptions = {
  /** Without a session the visitor cannot stay connected: cancelling the sign-in disconnects. @default false */
  required?: boolean
  /** One line shown in the message the wallet signs. */
  statement?: string
  /** URIs the session covers, listed in the message. */
  resources?: string[]
  /** Seconds until the session expires. @default 86_400 */
  expiresIn?: number
}

/** What {@link createAirlock} returns. */
export type Airlock = {
  /**
   * Shows the modal, on `view` if given; otherwise on the view that fits the moment (Connect, or Account
   * once connected). A view that cannot be shown now (Account while disconnected, say) opens that way too;
   * a name the modal does not know rejects with -32602.
   * @example await airlock.open({ view: 'Networks' })
   */
  open(options?: { view?: PublicView }): Promise<void>
  close(): Promise<void>
  /** The modal's state as last mirrored to the page. */
  getState(): State
  /** Calls back on every state change; returns the unsubscribe function. */
  subscribeState(callback: (state: State) => void): () => void
  disconnect(): Promise<void>
  switchNetwork(caipNetworkId: string): Promise<void>
  /**
   * The active account's sign-in session, if it signed in.
   * @example const session = airlock.getSession() // { address: 'eip155:1:0x…', message, signature, … }
   */
  getSession(): Session | undefined
  /** Calls back when the session starts, ends or changes; returns the unsubscribe function. */
  onSessionChange(callback: (session: Session | undefined) => void): () => void
  /**
   * Forgets the sign-in sessions in this browser; with required sign-in, also disconnects. (Ending a session
   * at the API takes the account's signature: `POST /v1/sessions/{address}/revoke`.)
   */
  signOut(): Promise<void>
  providers: { eip155: Eip1193Provider; solana: Wallet; bip122: Wallet }
  /** Removes the frame and fails pending calls. */
  destroy(): void
}

// On a server nothing will ever connect, so the mirror starts settled there.
const initial: State = {
  open: false,
  view: 'Connect',
  status: typeof window === 'undefined' ? 'disconnected' : 'connecting',
  namespaces: {},
}
const icon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzFmNGVkOCIvPjxjaXJjbGUgY3g9IjE2IiBjeT0iMTYiIHI9IjciIGZpbGw9Im5vbmUiIHN0cm9rZT0iI2ZmZiIgc3Ryb2tlLXdpZHRoPSIzIi8+PC9zdmc+'

/**
 * Creates Airlock on the page: mounts the modal frame once the page has loaded, and returns standard
 * providers that dApps (viem, ethers, wagmi, Wallet Standard apps) use unchanged. Safe to call on a server,
 * where it does nothing.
 * @example
 * const airlock = createAirlock({ projectId: 'demo', modalUrl: 'http://127.0.0.1:5174', networks: ['eip155:1'] })
 * const [address] = await airlock.providers.eip155.request({ method: 'eth_requestAccounts' })
 */
export function createAirlock(options: AirlockOptions): Airlock {
  // Two sign-in configurations would contradict each other; say so at once rather than pick one.
  if (options.siweConfig && options.siwx)
    throw new TypeError('Cannot set both `siweConfig` and `siwx` options.')
  const signIn = options.siweConfig ?? options.siwx
  const timeouts = { load: 20_000, request: 30_000, ...options.timeouts }
  let state = initial
  const subscribers = new Set<(state: State) => void>()
  let frame: Frame | undefined
  let ready: Deferred<Remote> | undefined
  let failure: unknown
  let close: (() => void) | undefined
  // Every page-level listener is added with this signal, so destroy() takes them all away.
  const stop = new AbortController()
  const { signal } = stop

  const timedOut = (error: unknown) => {
    const reason = (error as { reason?: Errors.TimeoutReason } | null)?.reason
    if (reason) options.onTimeout?.(reason)
    throw error
  }
  const remote = (): Promise<Remote> => {
    if (signal.aborted) return Promise.reject(failure)
    if (typeof window === 'undefined')
      return loadBridge().then((bridge) => Promise.reject(bridge.disconnected()))
    mount()
    return (ready as Deferred<Remote>).promise
  }
  const send = (request: Request) => remote().then((r) => r.request(request).catch(timedOut))

  const evm = eip1193(
    send,
    () => state,
    options.networks.find((n) => n.startsWith('eip155:')),
  )
  const solana = standardWallet('solana', options.networks, icon, send, () => state)
  const bip122 = standardWallet('bip122', options.networks, icon, send, () => state)

  const setState = (next: State) => {
    const before = state
    state = next
    if (next.open) frame?.show()
    else frame?.hide()
    evm.update(before, next)
    solana.update(before, next)
    bip122.update(before, next)
    for (const callback of subscribers) callback(next)
  }

  const mount = () => {
    if (frame) return
    const modalUrl = options.modalUrl ?? scriptOrigin
    if (!modalUrl) throw new TypeError('Airlock needs `modalUrl` when not loaded by a script tag.')
    const container =
      typeof options.embedded === 'string'
        ? (document.querySelector(options.embedded) as HTMLElement | null)
        : options.embedded
    const config = {
      networks: options.networks,
      rpcUrls: options.rpcUrls,
      themeMode: options.themeMode,
      themeVariables: options.themeVariables,
      features: options.features,
      embedded: !!container || undefined,
      walletConnect: options.walletConnectProjectId && {
        projectId: options.walletConnectProjectId,
        relayUrl: options.relayUrl,
      },
      featuredWalletIds: options.featuredWalletIds,
      excludeWalletIds: options.excludeWalletIds,
      siwx: signIn && { ...signIn, legacy: !!options.siweConfig || undefined },
    }
    const src = new URL(modalUrl)
    src.searchParams.set('projectId', options.projectId)
    src.searchParams.set('config', JSON.stringify(config))
    frame = mountFrame(src.href, container ?? undefined, () =>
      ready?.promise.then((r) => r.close()).catch(() => {}),
    )
    const { iframe } = frame

    // The frame may load before the bridge script arrives; loads are counted so none is missed.
    let loads = 0
    let onLoad = () => {}
    iframe.addEventListener('load', () => {
      loads++
      onLoad()
    })

    // Nobody may be waiting yet; a failure is kept for whoever calls later.
    ready = deferred<Remote>()
    const fail = (error: unknown) => {
      failure = error
      ready?.reject(error)
      // Said once, for the developer: a refused origin or a modal that never loaded.
      console.error('Airlock:', (error as Error).message)
    }
    // Armed for the first load and again after each reload, so no handshake can wait forever.
    let loadTimer: ReturnType<typeof setTimeout> | undefined
    const loadFailed = () => {
      if (failure) return
      fail(Object.assign(new Error('The Airlock modal failed to load.'), loadFailure))
      options.onTimeout?.('iframe_load_failed')
    }
    const arm = () => {
      clearTimeout(loadTimer)
      loadTimer = setTimeout(loadFailed, timeouts.load)
    }
    arm()

    loadBridge().then((bridge) => {
      if (failure) return
      close = bridge.start({
        iframe,
        modalOrigin: new URL(modalUrl).origin,
        projectId: options.projectId,
        requestTimeout: timeouts.request,
        own,
        signal,
        signIn: signIn && { statement: signIn.statement, resources: signIn.resources },
        onFrameLoad(listener) {
          onLoad = listener
          if (loads) listener()
        },
        setState,
        resize: (height) => frame?.resize(height),
        ready(remote) {
          clearTimeout(loadTimer)
          ready?.resolve(remote)
        },
        failed(error, final) {
          if (final) {
            clearTimeout(loadTimer)
            return fail(error)
          }
          ready?.reject(error)
          ready = deferred<Remote>()
          arm()
        },
      })
    }, loadFailed)
  }

  if (typeof window !== 'undefined') {
    own.add(evm.provider).add(solana.wallet).add(bip122.wallet)
    registerWallet(solana.wallet, signal)
    registerWallet(bip122.wallet, signal)
    if (options.announce !== false) announce(evm.provider, signal)
    // Mounting after `load` keeps the frame from delaying the host page's own load event.
    if (document.readyState === 'complete') mount()
    else addEventListener('load', mount, { once: true, signal })
  }

  // On a server there is no modal: actions do nothing, and requests fail as from a disconnected wallet.
  const call = (run: (r: Remote) => Promise<unknown>): Promise<void> =>
    typeof window === 'undefined'
      ? Promise.resolve()
      : remote().then((r) => run(r).then(() => undefined, timedOut))

  return {
    open: (input) => call((r) => r.open(input ?? {})),
    close: () => call((r) => r.close()),
    getState: () => state,
    subscribeState(callback) {
      subscribers.add(callback)
      return () => subscribers.delete(callback)
    },
    getSession: () => state.session,
    onSessionChange(callback) {
      let last = JSON.stringify(state.session)
      const onState = (next: State) => {
        const now = JSON.stringify(next.session)
        if (now === last) return
        last = now
        callback(next.session)
      }
      subscribers.add(onState)
      return () => subscribers.delete(onState)
    },
    signOut: () => call((r) => r.signOut()),
    disconnect: () => call((r) => r.disconnect()),
    switchNetwork: (caipNetworkId) => call((r) => r.switchNetwork({ caipNetworkId })),
    providers: { eip155: evm.provider, solana: solana.wallet, bip122: bip122.wallet },
    destroy() {
      // A dApp that re-creates Airlock (React's double mount, say) must not keep announcing the old one.
      failure = Object.assign(new Error('This Airlock instance was destroyed.'), { code: 4900 })
      stop.abort()
      ready?.reject(failure)
      close?.()
      frame?.destroy()
    },
  }
}

// The shape of Errors.TimeoutError('iframe_load_failed'), built here because the bridge that defines it
// is what failed to arrive.
const loadFailure = { code: -32603, reason: 'iframe_load_failed', data: { reason: 'iframe_load_failed' } }

// Captured while the script tag runs; `document.currentScript` is null afterwards.
const scriptOrigin =
  typeof document !== 'undefined' &&
  document.currentScript instanceof HTMLScriptElement &&
  document.currentScript.src
    ? new URL(document.currentScript.src).origin
    : undefined

/** EIP-6963: announce now and whenever a dApp asks, so multi-injected discovery finds Airlock. */
function announce(provider: Eip1193Provider, signal: AbortSignal) {
  const detail = Object.freeze({
    info: Object.freeze({ uuid: uuid(), name: 'Airlock', icon, rdns: 'dev.airlock' }),
    provider,
  })
  const post = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', post, { signal })
  post()
}

// crypto.randomUUID exists only in secure contexts; a plain-http dApp still needs a uuid for EIP-6963.
function uuid(): string {
  if (crypto.randomUUID) return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  // 8-4-4-4-12 hex digits: a dash before bytes 4, 6, 8 and 10.
  return [...b]
    .map((x, i) => (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + x.toString(16).padStart(2, '0'))
    .join('')
}
