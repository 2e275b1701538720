/**
 * The modal's core: owns the router and one connection per namespace, implements the API the host calls
 * (`Schema.modalApi`), pushes every state change to the host, and gives the views one snapshot to render.
 * It touches no DOM: storage, the network registry, the chain client and timers are handed in, so the
 * request routing is tested with a fake host.
 */
import {
  Caip,
  Errors,
  type PageWallet,
  type Request,
  type Schema,
  type State,
  type View,
  type WalletEvent,
} from '@airlock/bridge-protocol'
import { createActor } from 'xstate'
import type * as Api from './api/Api.ts'
import type { Config } from './config/Config.ts'
import { addChainParameters, addressUrl, type Network, toCaip } from './config/Network.ts'
import * as Injected from './connectors/injected.ts'
import type * as WalletConnect from './connectors/walletconnect.ts'
import * as WcWallet from './connectors/wcWallet.ts'
import { formatFiat, formatQuantity } from './format.ts'
import * as Connection from './machines/connection.ts'
import * as Router from './machines/router.ts'
import * as Snackbar from './Snackbar.ts'
import type * as SignIn from './signIn.ts'
import { keyOf, type Storage, sameWallet, type WalletKey } from './storage.ts'
import { texts } from './texts.ts'
import type * as WalletConnectFlow from './WalletConnectFlow.ts'
import type * as WalletRegistry from './WalletRegistry.ts'

export type Host = Injected.Host

/** Reads the chain; loaded on demand because it carries viem. */
export type ChainClient = {
  waitForReceipt(network: Network, hash: string): Promise<void>
}

/** What the modal asks the API (`api/Api.ts`): balances, the wallet registry, analytics. */
export type ApiClient = Pick<
  Api.Client,
  'balances' | 'wallets' | 'imageUrl' | 'track' | 'nonce' | 'signIn' | 'sessions'
>

/** The sign-in view's state (SPEC §4's sign-in flow). */
export type SignInInfo = {
  status: 'idle' | 'signing' | 'declined' | 'failed'
  error?: string | undefined
  required: boolean
}

/** The WalletConnect pairing as ConnectingWalletConnectBasic shows it. */
export type PairingInfo = WalletConnectFlow.PairingInfo

/** A token row of the Account view, formatted per SPEC §5. */
export type TokenRow = { symbol: string; name: string; amount: string; fiat: string; iconUrl: string }

/** The network registry (`config/networks.ts`), loaded on demand. */
export type Registry = {
  resolve(
    ids: readonly string[],
    options: { rpcUrls?: Readonly<Record<string, string>> | undefined },
  ): Network[]
}

export type AlertKind = 'invalidAppConfiguration' | 'projectIdNotConfigured' | 'invalidConfig'
export type Alert = { kind: AlertKind; title: string; detail: string }

/** A page wallet as the Connect view lists it. */
export type WalletEntry = { wallet: PageWallet; recent: boolean }

/** A connected account as the Account view shows it. */
export type AccountInfo = {
  namespace: Caip.Namespace
  address: string
  chainId: Caip.ChainId
  /** The configured network the account is on; absent when the wallet is on an unsupported one. */
  network?: Network | undefined
  explorerUrl?: string | undefined
  /** Native balance, SPEC §5's display (`9999.999 ETH`); EVM only for now. */
  balance?: string | undefined
  /** The ERC-20 tokens the account holds, from the API. */
  tokens: TokenRow[]
  wallet: PageWallet
}

/** Everything the views render. A new object on every change, the same one otherwise. */
export type Snapshot = {
  /** The host's origin as the browser reported it at the handshake; absent before it. */
  origin?: string | undefined
  alerts: Alert[]
  embedded: boolean
  open: boolean
  view: View
  canGoBack: boolean
  wallets: WalletEntry[]
  /** The wallet being connected (ConnectingExternal). */
  prompt?: { wallet: PageWallet; failure?: Connection.Failure | undefined; pending: boolean } | undefined
  account?: AccountInfo | undefined
  otherAccounts: AccountInfo[]
  /** Networks the user can switch to: the active namespace's when connected, else all configured. */
  networks: Network[]
  activeNetworkId?: Caip.ChainId | undefined
  snackbar?: Snackbar.Snack | undefined
  shake: boolean
  /** WalletConnect is configured (a project id was given). */
  walletConnect: boolean
  /** Registry wallets for Connect (SPEC §9: 4 featured, 4 recommended). */
  featured: Api.Listing[]
  recommended: Api.Listing[]
  pairing: PairingInfo
  signIn: SignInInfo
  /** The view may be closed (SPEC §4: not a required sign-in still open). */
  closable: boolean
}

/** What the views may do. Business rules stay here; views only call these. */
export type Ui = {
  selectWallet(wallet: PageWallet): void
  retry(): void
  back(): void
  close(): void
  showNetworks(): void
  switchNetwork(id: Caip.ChainId): Promise<void>
  disconnect(): Promise<void>
  /** The view copied the address (or failed to). */
  copied(ok: boolean): void
  /** Embedded mode: the card's height changed, so the host resizes its element. */
  resized(height: number): void
  /** Pairs over WalletConnect: the plain QR code, or for a registry wallet with its deep links. */
  connectWalletConnect(listing?: Api.Listing): void
  /** Opens the picked wallet's app with the pairing URI. */
  openWallet(kind: 'mobile' | 'desktop' | 'webapp'): void
  /** The view copied the pairing link (or failed to). */
  copiedLink(ok: boolean): void
  showAllWallets(): void
  /** Signs in the active account: the wallet signs the message, the API opens a session. */
  signIn(): Promise<void>
  /** Leaves the sign-in: disconnects when sign-in is required, else closes. */
  cancelSignIn(): Promise<void>
  /** The URL of a registry wallet's image. */
  imageUrl(listing: Api.Listing): string
}

export type Modal = {
  /** The implementation of `Schema.modalApi`, handed to `Messenger.create` at once on handshake. */
  api: Schema.ModalApi
  /** Attaches the host after the handshake: lists its wallets and reconnects. */
  start(session: { host: Host; origin: string }): Promise<void>
  alert(kind: AlertKind, detail?: string): void
  subscribe(listener: () => void): () => void
  getSnapshot(): Snapshot
  ui: Ui
  /** The registry behind AllWallets; absent when WalletConnect is not configured. */
  registry: WalletRegistry.WalletRegistry | undefined
}

/** Options of {@link create}. */
export type Options = {
  config: Config
  /** Set when the host's config could not be used: the modal shows it and refuses requests. */
  configError?: string | undefined
  storage: Storage
  /** @default false */
  mobile?: boolean
  loadRegistry: () => Promise<Registry>
  loadChainClient: () => Promise<ChainClient>
  api: ApiClient
  /** Loads the WalletConnect connector; sign-client is large, so only when a flow needs it. */
  loadWalletConnect?: (() => Promise<typeof WalletConnect>) | undefined
  /** Loads the WalletConnect flow (pairing, registry, session) when WalletConnect is configured. */
  loadWalletConnectFlow?: (() => Promise<typeof WalletConnectFlow>) | undefined
  /** Opens a deep link. @default window.open in a new tab */
  openUrl?: ((url: string) => void) | undefined
  /** Loads a registry image into the cache. @default an `Image` that loads it */
  preload?: ((url: string) => Promise<void>) | undefined
  /** SPEC §4: on Telegram and iOS Safari the status is connecting while a pairing waits. @default false */
  pairingConnects?: boolean | undefined
  /** Loads the sign-in flow (message, signature, session) on demand. */
  loadSignIn?: (() => Promise<typeof SignIn>) | undefined
  /** @default Snackbar.realTimers */
  timers?: Snackbar.Timers
  /** How long a silent reconnect may take before the wallet counts as gone. @default 10_000 */
  reconnectTimeout?: number
  /** How long to wait for a stored wallet to announce itself on the page. @default 600 */
  walletGrace?: number
  /** @default Date.now */
  now?: () => number
}

/** SPEC §9: balances are cached for 30 s, and after a failure not asked for again for 30 s. */
export const balanceCacheMs = 30_000
export const balanceRetryBlockMs = 30_000
/** SPEC §2: a shake lasts 500 ms. */
export const shakeMs = 500

type Waiter = {
  namespace: Caip.Namespace
  resolve: (connection: Connection.Connection) => void
  reject: (error: Errors.BaseError) => void
}

const alertTexts: Record<AlertKind, { title: string; detail: string }> = {
  invalidAppConfiguration: {
    title: texts.alerts.invalidAppConfiguration,
    detail: texts.alerts.invalidAppConfigurationDetail,
  },
  projectIdNotConfigured: {
    title: texts.alerts.projectIdNotConfigured,
    detail: texts.alerts.projectIdNotConfiguredDetail,
  },
  invalidConfig: { title: texts.alerts.invalidConfig, detail: '' },
}

/**
 * Wallets never listed (SPEC §2: excluded by rdns or name): Airlock's own providers, which the host page
 * also carries. Connecting Airlock through itself would loop. The host SDK filters them too.
 */
export const excluded: readonly { rdns?: string; name?: string }[] = [
  { rdns: 'dev.airlock' },
  { name: 'Airlock' },
]

const isExcluded = (wallet: PageWallet) =>
  excluded.some((rule) => (rule.rdns !== undefined && wallet.rdns === rule.rdns) || rule.name === wallet.name)

// Views a host may open explicitly. The others need a flow behind them (a wallet to connect, a
// transaction to approve) or are not built yet, so asking for them opens by SPEC §2's rule instead.
const openable: readonly View[] = [
  'SIWXSignMessage',
  'ConnectingSiwe',
  'Connect',
  'Account',
  'Networks',
  'UnsupportedChain',
  'AllWallets',
  'ConnectingWalletConnectBasic',
]

/**
 * @example
 * const modal = Modal.create({ config, storage, loadRegistry, loadChainClient })
 * const messenger = Messenger.create({ port, local: Schema.modalApi, implementation: modal.api, peer: Schema.hostApi })
 * modal.start({ host: messenger.remote, origin })
 */
export function create(options: Options): Modal {
  const {
    config,
    storage,
    timers = Snackbar.realTimers,
    reconnectTimeout = 10_000,
    walletGrace = 600,
    now = Date.now,
  } = options

  let host: Host | undefined
  let origin: string | undefined
  let wallets: PageWallet[] = []
  let networks: Network[] = []
  /** The registry resolved `config.networks`; until then the configured ids stand in for it. */
  let resolved = false
  let activeNetworkId: Caip.ChainId | undefined = storage.getActiveNetwork()
  /** The namespace the Connect view is narrowed to while a dApp waits for that namespace. */
  let filter: Caip.Namespace | undefined
  let alerts: Alert[] = []
  let balance: { key: string; entries?: Api.TokenBalance[] | undefined; at: number } | undefined
  /** Until when balance reads are blocked after a failure (SPEC §8). */
  let balanceBlockedUntil = 0
  /** The pending end of a shake; set while the card shakes. */
  let shake: { timer: unknown } | undefined
  let waiters: Waiter[] = []
  let walletWatchers: (() => void)[] = []
  let snapshot: Snapshot | undefined
  let published: string | undefined
  const listeners = new Set<() => void>()
  const ready = deferred()

  // ---- sign in with X ----

  const siwx = config.siwx
  const signInView: View = siwx?.legacy ? 'ConnectingSiwe' : 'SIWXSignMessage'
  let signInState: SignInInfo = { status: 'idle', required: Boolean(siwx?.required) }
  /** Accounts whose stored session the API confirmed in this page load. */
  const confirmed = new Set<string>()

  /** The key a session is stored under: CAIP-10, lower-case for EVM as the API writes it. */
  const accountKey = (connection: Connection.Connection) => {
    const address = connection.accounts[0]?.address ?? ''
    const id = `${connection.chainId}:${connection.chainId.startsWith('eip155:') ? address.toLowerCase() : address}`
    return Caip.isAccountId(id) ? id : undefined
  }

  /**
   * Where a session is kept: per host page and account. Browsers may share the modal's storage between
   * sites (or between pages of one site), and a sign-in names the page it was for.
   */
  const storageKey = (connection: Connection.Connection) => {
    const account = accountKey(connection)
    return account && origin ? `${origin} ${account}` : undefined
  }

  /** The connection's stored session, while it has not expired. */
  function sessionOf(connection: Connection.Connection | undefined): Schema.Session | undefined {
    const key = connection && storageKey(connection)
    const session = key ? storage.getSession(key) : undefined
    if (!session) return undefined
    if (session.expiresAt && Date.parse(session.expiresAt) <= now()) return undefined
    return session
  }

  /** SPEC §4: sign-in is on, the account is on a configured network, and it has no session. */
  function needsSignIn(namespace: Caip.Namespace): boolean {
    if (!siwx || (siwx.legacy && namespace !== 'eip155')) return false
    const connection = connectionOf(namespace)
    if (!connection || !configured(connection.chainId)) return false
    return !sessionOf(connection)
  }

  function updateLock() {
    const namespace = activeNamespace()
    router.send({ type: 'LOCK', locked: Boolean(siwx?.required && namespace && needsSignIn(namespace)) })
  }

  function openSignIn() {
    signInState = { status: 'idle', required: Boolean(siwx?.required) }
    updateLock()
    router.send({ type: 'OPEN', view: signInView })
    changed()
  }

  /** After a connection, a switch of account or chain: asks for a sign-in where one is missing. */
  function checkSignIn(namespace: Caip.Namespace): boolean {
    updateLock()
    if (!needsSignIn(namespace) || namespace !== activeNamespace()) return false
    openSignIn()
    return true
  }

  /**
   * A stored session counts only while the API still has it: once per page load each is confirmed, and a
   * revoked or expired one is dropped, which asks for a new sign-in. When the API cannot be reached the
   * stored one stands, so a brief outage does not sign everyone out.
   */
  async function confirmSession(namespace: Caip.Namespace) {
    const connection = connectionOf(namespace)
    const account = connection && accountKey(connection)
    const key = connection && storageKey(connection)
    const stored = sessionOf(connection)
    if (!siwx || !account || !key || !stored || confirmed.has(key)) return
    try {
      const active = await options.api.sessions(account)
      confirmed.add(key)
      if (active.some((session) => session.id === stored.id)) return
      storage.removeSession(key)
      changed()
      checkSignIn(namespace)
    } catch (error) {
      console.warn('[airlock] Could not confirm the sign-in session.', error)
    }
  }

  // ---- WalletConnect ----

  const wcConfig = config.walletConnect
  const wcEnabled = Boolean(wcConfig && options.loadWalletConnect && options.loadWalletConnectFlow)
  let wc: WalletConnectFlow.Flow | undefined
  let wcLoading: Promise<WalletConnectFlow.Flow> | undefined
  let suggestions: { featured: Api.Listing[]; recommended: Api.Listing[] } = { featured: [], recommended: [] }
  let suggesting: Promise<void> | undefined

  /** The WalletConnect flow, loaded on first use; a failed load is tried again next time. */
  function flow(): Promise<WalletConnectFlow.Flow> {
    const { loadWalletConnect, loadWalletConnectFlow } = options
    if (!wcConfig || !loadWalletConnect || !loadWalletConnectFlow)
      return Promise.reject(new Errors.UnsupportedMethodError(texts.walletConnect.notConfigured))
    wcLoading ??= loadWalletConnectFlow().then((module) => {
      wc = module.create({
        projectId: wcConfig.projectId,
        relayUrl: wcConfig.relayUrl,
        storage,
        timers,
        now,
        mobile: options.mobile ?? false,
        api: options.api,
        openUrl: options.openUrl ?? ((url) => void window.open(url, '_blank', 'noopener,noreferrer')),
        preload: options.preload ?? module.preloadImage,
        loadConnector: loadWalletConnect,
        origin: () => origin,
        networks: () => networks,
        installed: () => wallets,
        exclude: config.excludeWalletIds ?? [],
        featured: config.featuredWalletIds ?? [],
        changed,
        approved: onApproved,
        event: onWalletConnectEvent,
      })
      changed()
      return wc
    })
    wcLoading.catch(() => {
      wcLoading = undefined
    })
    return wcLoading
  }

  /** Runs `task` on the flow: at once when it is loaded, so it keeps its order with what follows. */
  function withFlow(task: (f: WalletConnectFlow.Flow) => void) {
    if (wc) return task(wc)
    flow().then(task, (error: unknown) => console.warn('[airlock] WalletConnect is unavailable.', error))
  }

  /** The wallet approved a pairing: every configured namespace the session carries connects to it. */
  function onApproved(approved: WalletConnect.Session) {
    const namespaces = configuredNamespaces()
    for (const namespace of Caip.namespaces) {
      const carried = approved.accounts.some((account) => account.startsWith(`${namespace}:`))
      if (namespaces.has(namespace) && carried)
        connections[namespace].send({ type: 'CONNECT', wallet: WcWallet.of(namespace, approved.peer.name) })
    }
  }

  function onWalletConnectEvent(event: WalletConnect.Event) {
    if (!wc?.follow(event)) return
    const served = Caip.namespaces.filter((namespace) =>
      WcWallet.is(connectionOf(namespace)?.wallet ?? { id: '' }),
    )
    if (event.type === 'updated') {
      for (const namespace of served) {
        const chainId = connectionOf(namespace)?.chainId
        void flow()
          .then((f) => f.connection(namespace, chainId))
          .then(
            (next) => connections[namespace].send({ type: 'ACCOUNTS_CHANGED', accounts: next.accounts }),
            () => connections[namespace].send({ type: 'DISCONNECT' }),
          )
      }
      return
    }
    if (event.type === 'deleted') {
      for (const namespace of served) connections[namespace].send({ type: 'DISCONNECT' })
      return
    }
    if (event.type === 'chainChanged') {
      const namespace = Caip.parseChainId(event.chainId).namespace
      if (served.includes(namespace))
        connections[namespace].send({ type: 'CHAIN_CHANGED', chainId: event.chainId })
      return
    }
    const { namespace, accounts } = event
    if (!served.includes(namespace)) return
    // In the same queue as page wallets' events, so a later chainChanged cannot overtake it.
    walletEvents = walletEvents
      .then(async () => {
        const addresses = await Injected.changedAccounts(namespace, accounts)
        if (addresses)
          connections[namespace].send({
            type: 'ACCOUNTS_CHANGED',
            accounts: addresses.map((address) => ({ address })),
          })
      })
      .catch(() => {})
  }

  const configured = (id: string | undefined) => networks.find((network) => network.id === id)
  const configuredNamespaces = () =>
    new Set<Caip.Namespace>(
      resolved
        ? networks.map((network) => network.namespace)
        : config.networks.filter(Caip.isChainId).map((id) => Caip.parseChainId(id).namespace),
    )

  // ---- actors ----

  const router = createActor(Router.machine.provide({ actions: { closed: () => onClosed() } }), {
    input: {
      embedded: config.embedded ?? false,
      mobile: options.mobile ?? false,
      adapters: configuredNamespaces().size > 0,
      connected: false,
    },
  })

  const connections = Object.fromEntries(
    Caip.namespaces.map((namespace) => {
      const logic = Connection.machine.provide({
        actions: {
          reconnect: ({ self }, { wallet, attempt }) => {
            const fallback = activeNetworkId
            const connecting = WcWallet.is(wallet)
              ? flow().then((f) => f.restore(namespace, fallback))
              : requireHost().then((h) => Injected.connect(h, wallet, { silent: true, networks, fallback }))
            withTimeout(connecting, reconnectTimeout, timers)
              .then((connection) => self.send({ type: 'SUCCEEDED', attempt, connection }))
              .catch((error: unknown) => self.send({ type: 'FAILED', attempt, failure: failureOf(error) }))
          },
          prompt: ({ self }, { wallet, attempt }) => {
            const fallback = activeNetworkId
            const connecting = WcWallet.is(wallet)
              ? flow().then((f) => f.connection(namespace, fallback))
              : requireHost().then((h) => Injected.connect(h, wallet, { silent: false, networks, fallback }))
            connecting
              .then((connection) => self.send({ type: 'SUCCEEDED', attempt, connection }))
              .catch((error: unknown) => self.send({ type: 'FAILED', attempt, failure: failureOf(error) }))
          },
          remember: (_, { wallet }) => {
            storage.addConnection(keyOf(wallet))
            storage.addRecentWallet(keyOf(wallet))
          },
          forget: () => storage.clearConnections(namespace),
        },
      })
      return [namespace, createActor(logic, { input: { namespace } })]
    }),
  ) as Record<Caip.Namespace, ReturnType<typeof createActor<typeof Connection.machine>>>

  const connectionOf = (namespace: Caip.Namespace) =>
    Connection.connectionOf(connections[namespace].getSnapshot())
  const anyConnected = () => Caip.namespaces.some((namespace) => connectionOf(namespace))
  /** SPEC §2: the EVM account is on a network that is not configured. */
  const onUnsupportedChain = () => {
    const connection = connectionOf('eip155')
    return connection !== undefined && !configured(connection.chainId)
  }
  const connectedEvent = () =>
    ({ type: 'CONNECTED', connected: anyConnected(), unsupported: onUnsupportedChain() }) as const

  // ---- reactions to machine transitions ----

  const previous = Object.fromEntries(
    Caip.namespaces.map((namespace) => [namespace, connections[namespace].getSnapshot()]),
  ) as Record<Caip.Namespace, Connection.ConnectionSnapshot>

  for (const namespace of Caip.namespaces) {
    connections[namespace].subscribe((next) => {
      const before = previous[namespace]
      previous[namespace] = next
      onConnectionChange(namespace, before, next)
      changed()
    })
  }
  router.subscribe((snap) => {
    // Connect's registry suggestions are read when the modal first shows, not on every page load.
    if (Router.isOpen(snap)) suggest()
    changed()
  })

  function onConnectionChange(
    namespace: Caip.Namespace,
    before: Connection.ConnectionSnapshot,
    next: Connection.ConnectionSnapshot,
  ) {
    const was = Connection.connectionOf(before)
    const is = Connection.connectionOf(next)
    if (next.value === 'failed' && before.value === 'prompting') {
      const failure = next.context.prompt?.failure
      snackbar.show(
        'error',
        failure?.code === 4001 ? texts.errors.userRejected : (failure?.message ?? texts.errors.fallback),
      )
      startShake()
    }
    // A new connection, also one that replaced another; not the old one coming back after a cancelled prompt.
    if (is && is !== was && before.value !== 'connected') {
      // The wallet that was replaced is told, so it does not stay authorised for this site on its side.
      if (was && was.wallet.id !== is.wallet.id) void disconnectWallet(namespace, was).catch(() => {})
      return onConnected(namespace, is, before.value === 'prompting')
    }
    if (was && !is) {
      if (namespace === 'eip155') balance = undefined
      router.send(connectedEvent())
      return
    }
    if (was && is && was.chainId !== is.chainId) onChainChanged(namespace, is)
    if (was && is && was.accounts[0]?.address !== is.accounts[0]?.address) {
      if (namespace === 'eip155') void refreshBalance(true)
      // SPEC: switching to an account without a session asks again.
      checkSignIn(namespace)
    }
    if (was && !is) updateLock()
  }

  function onConnected(namespace: Caip.Namespace, connection: Connection.Connection, byUser: boolean) {
    // A connection the user just made becomes the active one; a reconnect keeps the stored choice.
    const active = activeNamespaceOf(activeNetworkId)
    if (byUser || !active || active === namespace) setActiveNetwork(configured(connection.chainId)?.id)
    const answered = waiters.filter((waiter) => waiter.namespace === namespace)
    waiters = waiters.filter((waiter) => waiter.namespace !== namespace)
    for (const waiter of answered) waiter.resolve(connection)
    // Also on reconnect, so the next open lands on UnsupportedChain (SPEC §2).
    router.send(connectedEvent())
    if (namespace === 'eip155') void refreshBalance(true)
    const unsupported = namespace === 'eip155' && !configured(connection.chainId)
    if (byUser) {
      filter = undefined
      if (unsupported) return router.send({ type: 'OPEN', view: 'UnsupportedChain' })
      if (checkSignIn(namespace)) return
      // A dApp that asked for accounts has them: the modal gets out of the way. A visitor who opened the
      // modal to connect sees the account they connected.
      if (answered.length > 0) return router.send({ type: 'CLOSE' })
      return router.send({ type: 'OPEN', view: 'Account' })
    }
    // A reconnected account without a session is asked once start-up has settled (see start()).
    if (!needsSignIn(namespace)) void confirmSession(namespace)
    // Reconnected while the modal shows Connect (opened before the reconnect settled): show the account.
    const snap = router.getSnapshot()
    if (
      Router.isOpen(snap) &&
      !filter &&
      snap.context.history.length === 1 &&
      Router.currentView(snap.context) === 'Connect'
    )
      router.send({ type: 'OPEN', view: onUnsupportedChain() ? 'UnsupportedChain' : 'Account' })
  }

  function onChainChanged(namespace: Caip.Namespace, connection: Connection.Connection) {
    const network = configured(connection.chainId)
    // A session is bound to its chain: another chain without one asks again.
    if (network && checkSignIn(namespace)) return
    if (network && sameNamespace(activeNetworkId, namespace)) setActiveNetwork(network.id)
    if (namespace !== 'eip155') return
    void refreshBalance(true)
    router.send(connectedEvent())
    const view = Router.currentView(router.getSnapshot().context)
    if (!network) return router.send({ type: 'OPEN', view: 'UnsupportedChain' })
    if (view === 'UnsupportedChain') router.send({ type: 'BACK' })
  }

  function onClosed() {
    filter = undefined
    const pending = waiters
    waiters = []
    for (const waiter of pending) waiter.reject(new Errors.UserRejectedRequestError())
    for (const namespace of Caip.namespaces) connections[namespace].send({ type: 'CANCEL' })
    // A pairing nobody looks at any more ends with the modal (SPEC §4's reset).
    wc?.reset()
  }

  /** A view opened directly (by the host, or by SPEC §2's rule) starts the flow behind it. */
  function enter(view: View) {
    if (view === 'ConnectingWalletConnectBasic' && wcEnabled) withFlow((f) => f.ensure())
    if (view === 'AllWallets' && wcEnabled) withFlow((f) => f.registry.open())
  }

  // ---- state ----

  const snackbar = Snackbar.create({ onChange: () => changed(), timers })

  function changed() {
    snapshot = undefined
    publish()
    for (const listener of listeners) listener()
  }

  function activeNamespaceOf(id: Caip.ChainId | undefined): Caip.Namespace | undefined {
    return id ? Caip.parseChainId(id).namespace : undefined
  }

  /** The namespace whose account and network the modal shows: the active network's if connected. */
  function activeNamespace(): Caip.Namespace | undefined {
    const preferred = activeNamespaceOf(activeNetworkId)
    if (preferred && connectionOf(preferred)) return preferred
    return Caip.namespaces.find((namespace) => connectionOf(namespace)) ?? preferred ?? networks[0]?.namespace
  }

  function caipNetworkId(): Caip.ChainId | undefined {
    const namespace = activeNamespace()
    const connection = namespace && connectionOf(namespace)
    if (connection) return connection.chainId
    return configured(activeNetworkId)?.id ?? networks[0]?.id
  }

  function setActiveNetwork(id: Caip.ChainId | undefined) {
    if (!id || id === activeNetworkId) return
    activeNetworkId = id
    storage.setActiveNetwork(id)
    changed()
  }

  function status(): State['status'] {
    const statuses = Caip.namespaces.map((namespace) =>
      Connection.statusOf(connections[namespace].getSnapshot()),
    )
    if (statuses.includes('connected')) return 'connected'
    if (options.pairingConnects && wc?.waiting()) return 'connecting'
    if (statuses.includes('reconnecting')) return 'reconnecting'
    if (statuses.includes('connecting')) return 'connecting'
    return 'disconnected'
  }

  function state(): State {
    const snap = router.getSnapshot()
    const namespaces: State['namespaces'] = {}
    for (const namespace of Caip.namespaces) {
      const connection = connectionOf(namespace)
      if (!connection) continue
      namespaces[namespace] = {
        chainId: connection.chainId,
        accounts: connection.accounts.map(({ address, publicKey }) =>
          publicKey ? { address, publicKey } : { address },
        ),
      }
    }
    const namespace = activeNamespace()
    const connection = namespace && connectionOf(namespace)
    const address = connection?.accounts[0]?.address
    const network = caipNetworkId()
    return {
      open: Router.isOpen(snap),
      view: Router.currentView(snap.context),
      status: status(),
      ...(connection && address && Caip.isAccountId(`${connection.chainId}:${address}`)
        ? { caipAddress: Caip.formatAccountId(connection.chainId, address), address }
        : {}),
      ...(network ? { caipNetworkId: network } : {}),
      namespaces,
      ...(siwx && sessionOf(connection || undefined) ? { session: sessionOf(connection || undefined) } : {}),
    }
  }

  function publish() {
    if (!host) return
    const next = state()
    const key = JSON.stringify(next, (_, value) => (value instanceof Uint8Array ? Array.from(value) : value))
    if (key === published) return
    published = key
    host.setState(next).catch(() => {
      // A host that went away rejects; the next change tries again.
      published = undefined
    })
  }

  function accountInfo(namespace: Caip.Namespace, connection: Connection.Connection): AccountInfo {
    const address = connection.accounts[0]?.address ?? ''
    const network = configured(connection.chainId)
    const entries = network && balance?.key === `${network.id}:${address}` ? balance.entries : undefined
    const native = entries?.find((entry) => entry.address === undefined)
    return {
      namespace,
      address,
      chainId: connection.chainId,
      network,
      explorerUrl: network && addressUrl(network, address),
      balance:
        namespace === 'eip155' && network
          ? `${formatQuantity(native?.quantity.numeric)} ${network.nativeCurrency.symbol}`
          : undefined,
      tokens: (entries ?? [])
        .filter((entry) => entry.address !== undefined)
        .map((entry) => ({
          symbol: entry.symbol,
          name: entry.name,
          amount: formatQuantity(entry.quantity.numeric),
          fiat: formatFiat(entry.value),
          iconUrl: entry.iconUrl,
        })),
      wallet: connection.wallet,
    }
  }

  function build(): Snapshot {
    const snap = router.getSnapshot()
    const view = Router.currentView(snap.context)
    const namespaces = configuredNamespaces()
    const recent = storage.getRecentWallets()
    const visible = wallets.filter(
      (wallet) => namespaces.has(wallet.namespace) && (!filter || wallet.namespace === filter),
    )
    const isRecent = (wallet: PageWallet) => recent.some((key) => sameWallet(key, wallet))
    const ordered = [
      ...recent.flatMap((key) => visible.filter((wallet) => sameWallet(key, wallet))),
      ...visible.filter((wallet) => !isRecent(wallet)),
    ]
    const active = activeNamespace()
    const accounts = Caip.namespaces.flatMap((namespace) => {
      const connection = connectionOf(namespace)
      return connection ? [accountInfo(namespace, connection)] : []
    })
    const account = accounts.find((info) => info.namespace === active) ?? accounts[0]
    const prompting = Caip.namespaces
      .map((namespace) => connections[namespace].getSnapshot())
      .find((s) => (s.value === 'prompting' || s.value === 'failed') && s.context.prompt)
    const prompt = prompting?.context.prompt
    return {
      origin,
      alerts,
      embedded: config.embedded ?? false,
      open: Router.isOpen(snap),
      view,
      canGoBack: snap.context.history.length > 1,
      wallets: ordered.map((wallet) => ({ wallet, recent: isRecent(wallet) })),
      prompt: prompt && {
        wallet: prompt.wallet,
        failure: prompt.failure,
        pending: prompting?.value === 'prompting',
      },
      account,
      otherAccounts: accounts.filter((info) => info !== account),
      networks: account ? networks.filter((network) => network.namespace === account.namespace) : networks,
      activeNetworkId: caipNetworkId(),
      snackbar: snackbar.current(),
      shake: shake !== undefined,
      walletConnect: wcEnabled,
      featured: suggestions.featured,
      recommended: suggestions.recommended,
      pairing: wc?.info() ?? { status: 'idle', links: [] },
      signIn: signInState,
      closable: !Router.closeBlocked(snap.context),
    }
  }

  function startShake() {
    if (shake) timers.clearTimeout(shake.timer)
    shake = {
      timer: timers.setTimeout(() => {
        shake = undefined
        changed()
      }, shakeMs),
    }
    changed()
  }

  // ---- chain reads ----

  /** `force` skips the modal's cache, `fresh` the API's too (after a transaction the API's is stale). */
  async function refreshBalance(force = false, fresh = false) {
    const connection = connectionOf('eip155')
    const network = connection && configured(connection.chainId)
    const address = connection?.accounts[0]?.address
    if (!network || !address) return
    const key = `${network.id}:${address}`
    if (now() < balanceBlockedUntil) return
    if (!force && balance?.key === key && now() - balance.at < balanceCacheMs) return
    balance = { key, entries: balance?.key === key ? balance.entries : undefined, at: now() }
    try {
      const entries = await options.api.balances(network.id, address, { fresh })
      if (balance?.key !== key) return
      balance = { key, entries, at: now() }
      changed()
    } catch (error) {
      // SPEC §8: the toast, and no new attempt for 30 s; the balance stays at its last value (0.000 at first).
      balanceBlockedUntil = now() + balanceRetryBlockMs
      if (balance?.key === key) balance = { ...balance, at: 0 }
      snackbar.show('error', texts.errors.tokenBalanceUnavailable)
      console.warn('[airlock] Could not read the balance.', error)
    }
  }

  async function afterTransaction(hash: string) {
    const connection = connectionOf('eip155')
    const network = connection && configured(connection.chainId)
    if (!network) return
    try {
      const client = await options.loadChainClient()
      await client.waitForReceipt(network, hash)
    } catch (error) {
      console.warn('[airlock] Could not wait for the transaction receipt.', error)
    }
    await refreshBalance(true, true)
  }

  // ---- connecting and switching ----

  function requireHost(): Promise<Host> {
    return host ? Promise.resolve(host) : Promise.reject(new Errors.DisconnectedError())
  }

  /** Resolves with the namespace's connection, opening Connect and waiting for the user if there is none. */
  function requireConnection(namespace: Caip.Namespace): Promise<Connection.Connection> {
    const connection = connectionOf(namespace)
    if (connection) return Promise.resolve(connection)
    if (!configuredNamespaces().has(namespace)) return Promise.reject(new Errors.UnsupportedChainError())
    return new Promise((resolve, reject) => {
      const snap = router.getSnapshot()
      const view = Router.currentView(snap.context)
      const showing = Router.isOpen(snap) && (view === 'Connect' || view === 'ConnectingExternal')
      if (!showing || (filter !== undefined && filter !== namespace)) {
        filter = namespace
        router.send({ type: 'OPEN', view: 'Connect' })
        changed()
      } else if (filter === undefined && view === 'Connect') {
        // The visitor opened Connect before the dApp asked: only a wallet of this namespace can answer it.
        filter = namespace
        changed()
      }
      waiters.push({ namespace, resolve, reject })
    })
  }

  async function switchTo(network: Network) {
    const connection = connectionOf(network.namespace)
    if (connection && network.namespace === 'eip155') await switchWallet(connection, network)
    else if (connection) connections[network.namespace].send({ type: 'CHAIN_CHANGED', chainId: network.id })
    setActiveNetwork(network.id)
  }

  /** `wallet_switchEthereumChain`, adding the chain first when the wallet does not know it (4902). */
  async function switchWallet(connection: Connection.Connection, network: Network) {
    const ask = (method: string, params: unknown[]) =>
      walletRequest(connection, { namespace: 'eip155', method, params })
    const chainId = Caip.toHexChainId(network.id)
    try {
      await ask('wallet_switchEthereumChain', [{ chainId }])
    } catch (error) {
      if (!isUnrecognizedChain(error)) throw error
      await ask('wallet_addEthereumChain', [addChainParameters(network)])
      await ask('wallet_switchEthereumChain', [{ chainId }])
    }
    // The wallet also sends chainChanged; applying it here keeps the answer and the state in step.
    connections.eip155.send({ type: 'CHAIN_CHANGED', chainId: network.id })
  }

  async function disconnectNamespace(namespace: Caip.Namespace) {
    const connection = connectionOf(namespace)
    if (!connection) return
    await disconnectWallet(namespace, connection)
    connections[namespace].send({ type: 'DISCONNECT' })
  }

  /**
   * Ends a connection on the wallet's side. A WalletConnect session serves every namespace it was approved
   * for, so it ends with the last of them (or at once when `all`).
   */
  async function disconnectWallet(namespace: Caip.Namespace, connection: Connection.Connection) {
    if (!WcWallet.is(connection.wallet)) return Injected.disconnect(await requireHost(), connection)
    const others = Caip.namespaces.filter(
      (ns) => ns !== namespace && WcWallet.is(connectionOf(ns)?.wallet ?? { id: '' }),
    )
    if (others.length > 0) return
    await (await flow()).disconnect()
  }

  async function disconnectAll() {
    const results = await Promise.allSettled(
      Caip.namespaces.map((namespace) => disconnectNamespace(namespace)),
    )
    const failed = results.find((result) => result.status === 'rejected')
    if (!failed) return
    console.error('[airlock] Failed to disconnect', failed.reason)
    snackbar.show('error', texts.errors.failedToDisconnect)
    startShake()
    throw new Errors.InternalError(texts.errors.failedToDisconnect, { cause: failed.reason })
  }

  // ---- requests ----

  async function request(req: Request): Promise<unknown> {
    if (options.configError) throw new Errors.InternalError(texts.errors.invalidConfig(options.configError))
    await ready.promise
    if (req.namespace === 'eip155') return eip155(req)
    return standard(req)
  }

  async function eip155(req: Schema.Eip155Request): Promise<unknown> {
    switch (req.method) {
      case 'eth_requestAccounts':
        return addresses(await requireConnection('eip155'))
      case 'wallet_requestPermissions':
        await requireConnection('eip155')
        return [{ parentCapability: 'eth_accounts' }]
      case 'eth_accounts': {
        const connection = connectionOf('eip155')
        return connection ? addresses(connection) : []
      }
      case 'eth_chainId':
        return Caip.toHexChainId(eip155ChainId())
      case 'wallet_switchEthereumChain': {
        const network = configured(toCaip(switchTarget(req.params)))
        if (network?.namespace !== 'eip155') throw new Errors.UnrecognizedChainError()
        await switchTo(network)
        return null
      }
    }
    const connection = connectionOf('eip155')
    if (!connection) throw new Errors.UnauthorizedError()
    const result = await walletRequest(connection, req)
    if (req.method === 'eth_sendTransaction' && typeof result === 'string') void afterTransaction(result)
    return result
  }

  function eip155ChainId(): Caip.ChainId {
    const connection = connectionOf('eip155')
    if (connection) return connection.chainId
    const active = configured(activeNetworkId)
    if (active?.namespace === 'eip155') return active.id
    const first = networks.find((network) => network.namespace === 'eip155')
    if (!first) throw new Errors.DisconnectedError()
    return first.id
  }

  async function standard(req: Schema.SolanaRequest | Schema.Bip122Request): Promise<unknown> {
    const { namespace } = req
    switch (req.method) {
      case 'standard:connect':
      case 'bitcoin:connect': {
        const silent = req.params?.silent === true
        if (silent && !connectionOf(namespace)) return { accounts: [] }
        return connectResult(await requireConnection(namespace))
      }
      case 'standard:disconnect':
        await disconnectNamespace(namespace)
        return undefined
    }
    const connection = connectionOf(namespace)
    if (!connection) throw new Errors.UnauthorizedError()
    return walletRequest(connection, req)
  }

  /** Runs a request on the connection's wallet: on the host page, or over the WalletConnect session. */
  async function walletRequest(connection: Connection.Connection, req: Request): Promise<unknown> {
    if (!WcWallet.is(connection.wallet)) {
      const h = await requireHost()
      return h.walletRequest({ walletId: connection.wallet.id, request: req })
    }
    return (await flow()).request(connection, req)
  }

  // Wallet events are applied one after another: checksumming an EVM address is asynchronous, and a
  // chainChanged must not overtake the accountsChanged sent before it.
  let walletEvents = Promise.resolve()
  function queueWalletEvent(event: WalletEvent): Promise<void> {
    walletEvents = walletEvents.then(() => onWalletEvent(event)).catch(() => {})
    return walletEvents
  }

  async function onWalletEvent(event: WalletEvent) {
    const namespace = Caip.namespaces.find((ns) => connectionOf(ns)?.wallet.id === event.walletId)
    if (!namespace) return
    const actor = connections[namespace]
    switch (event.type) {
      case 'accountsChanged': {
        // A page wallet's event is untrusted input: one malformed address and the whole event is ignored.
        const addresses = await Injected.changedAccounts(namespace, event.accounts)
        if (!addresses) return
        return actor.send({ type: 'ACCOUNTS_CHANGED', accounts: addresses.map((address) => ({ address })) })
      }
      case 'chainChanged': {
        const chainId = toCaip(event.chainId)
        if (chainId?.startsWith(`${namespace}:`)) actor.send({ type: 'CHAIN_CHANGED', chainId })
        return
      }
      case 'disconnect':
        return actor.send({ type: 'DISCONNECT' })
    }
  }

  // ---- startup ----

  async function start(session: { host: Host; origin: string }) {
    host = session.host
    origin = session.origin
    changed()
    try {
      const registry = await options.loadRegistry()
      networks = registry.resolve(config.networks, { rpcUrls: config.rpcUrls })
      resolved = true
      // Networks the registry does not know are dropped, which may leave no namespace configured.
      router.send({ type: 'ADAPTERS', adapters: configuredNamespaces().size > 0 })
      if (!configured(activeNetworkId)) activeNetworkId = undefined
      const listed = await session.host.listWallets().catch(() => [] as PageWallet[])
      wallets = mergeWallets(
        wallets,
        listed.filter((wallet) => !isExcluded(wallet)),
      )
      changed()
      const stored = Caip.namespaces.map(
        (namespace) => [namespace, storage.getConnections(namespace)] as const,
      )
      const isWc = (key: WalletKey) => key.rdns === WcWallet.rdns
      const missing = () =>
        stored.some(([, keys]) => keys.length > 0 && !keys.some((key) => isWc(key) || findWallet(key)))
      if (missing()) await waitForWallets(() => !missing(), walletGrace)
      const namespaces = configuredNamespaces()
      for (const [namespace, keys] of stored) {
        const candidates = namespaces.has(namespace)
          ? unique(
              keys.flatMap((key) =>
                isWc(key) ? (wcEnabled ? [WcWallet.of(namespace, key.name)] : []) : (findWallet(key) ?? []),
              ),
            )
          : []
        connections[namespace].send({ type: 'RECONNECT', candidates })
      }
      await Promise.all(Caip.namespaces.map((namespace) => settled(namespace)))
      const active = activeNamespace()
      if (active) checkSignIn(active)
    } finally {
      ready.resolve()
      changed()
    }
  }

  /** Reads Connect's featured and recommended wallets once; a failure is tried again on the next open. */
  function suggest() {
    if (!wcEnabled || suggesting) return
    suggesting = flow()
      .then((f) => f.registry.suggestions())
      .then(
        (found) => {
          suggestions = found
          changed()
        },
        (error: unknown) => {
          suggesting = undefined
          console.warn('[airlock] Could not read the wallet registry.', error)
        },
      )
  }

  function findWallet(key: WalletKey): PageWallet | undefined {
    return wallets.find((wallet) => sameWallet(key, wallet))
  }

  function waitForWallets(done: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        timers.clearTimeout(timer)
        walletWatchers = walletWatchers.filter((watcher) => watcher !== check)
        resolve()
      }
      const check = () => {
        if (done()) finish()
      }
      const timer = timers.setTimeout(finish, ms)
      walletWatchers.push(check)
    })
  }

  function settled(namespace: Caip.Namespace): Promise<void> {
    const actor = connections[namespace]
    const done = () => !['connecting', 'reconnecting'].includes(actor.getSnapshot().value)
    if (done()) return Promise.resolve()
    return new Promise((resolve) => {
      const subscription = actor.subscribe(() => {
        if (!done()) return
        subscription.unsubscribe()
        resolve()
      })
    })
  }

  router.start()
  for (const namespace of Caip.namespaces) connections[namespace].start()

  // ---- the host's API ----

  const api: Schema.ModalApi = {
    open(input) {
      const requested = input?.view
      const view = requested && canOpen(requested) ? requested : undefined
      filter = undefined
      router.send({ type: 'OPEN', view })
      enter(Router.currentView(router.getSnapshot().context))
      changed()
      void refreshBalance()
    },
    close() {
      router.send({ type: 'CLOSE' })
    },
    request,
    getState: () => state(),
    async disconnect() {
      await ready.promise
      await disconnectAll()
    },
    async switchNetwork({ caipNetworkId }) {
      await ready.promise
      const network = configured(caipNetworkId)
      if (!network) throw new Errors.UnrecognizedChainError()
      await switchTo(network)
    },
    walletsChanged(list) {
      wallets = list.filter((wallet) => !isExcluded(wallet))
      for (const watcher of [...walletWatchers]) watcher()
      changed()
    },
    walletEvent: (event) => queueWalletEvent(event),
    async signOut() {
      if (!siwx) throw new Errors.InternalError(texts.signIn.notEnabled)
      await ready.promise
      for (const namespace of Caip.namespaces) {
        const connection = connectionOf(namespace)
        const key = connection && storageKey(connection)
        if (key) storage.removeSession(key)
      }
      changed()
      if (siwx.required) await disconnectAll()
      updateLock()
    },
    ping: () => 'pong' as const,
  }

  function canOpen(view: View): boolean {
    if (!openable.includes(view)) return false
    if (view === 'Account') return anyConnected()
    if (view === 'UnsupportedChain') return onUnsupportedChain()
    if (view === 'AllWallets' || view === 'ConnectingWalletConnectBasic') return wcEnabled
    // The sign-in view of the configured option, for an account that can sign in.
    if (Router.signInViews.includes(view)) {
      const namespace = activeNamespace()
      return view === signInView && namespace !== undefined && connectionOf(namespace) !== undefined
    }
    return true
  }

  // ---- the views' actions ----

  const ui: Ui = {
    selectWallet(wallet) {
      // A connection of the namespace stays until the new one succeeds (the machine keeps it meanwhile).
      connections[wallet.namespace].send({ type: 'CONNECT', wallet })
      const view = Router.currentView(router.getSnapshot().context)
      router.send({ type: view === 'ConnectingExternal' ? 'REPLACE' : 'PUSH', view: 'ConnectingExternal' })
    },
    retry() {
      for (const namespace of Caip.namespaces) connections[namespace].send({ type: 'RETRY' })
      // SPEC §9: a failed pairing may be retried 1 s after it failed; an earlier click waits for that.
      wc?.retry()
    },
    back() {
      const view = Router.currentView(router.getSnapshot().context)
      if (view === 'ConnectingExternal')
        for (const namespace of Caip.namespaces) connections[namespace].send({ type: 'CANCEL' })
      if (view === 'ConnectingWalletConnectBasic') wc?.reset()
      router.send({ type: 'BACK' })
    },
    close() {
      router.send({ type: 'CLOSE' })
    },
    connectWalletConnect(listing) {
      const target = listing && {
        id: listing.id,
        name: listing.name,
        mobileLink: listing.mobile_link,
        desktopLink: listing.desktop_link,
        webappLink: listing.webapp_link,
      }
      withFlow((f) => f.start(target))
      const view = Router.currentView(router.getSnapshot().context)
      if (view !== 'ConnectingWalletConnectBasic')
        router.send({ type: 'PUSH', view: 'ConnectingWalletConnectBasic' })
    },
    openWallet(kind) {
      wc?.openWallet(kind)
    },
    copiedLink(ok) {
      if (ok) snackbar.show('success', texts.walletConnect.linkCopied)
      else {
        snackbar.show('error', texts.walletConnect.copyFailed)
        startShake()
      }
    },
    async signIn() {
      const namespace = activeNamespace()
      const connection = namespace && connectionOf(namespace)
      if (!siwx) throw new Errors.InternalError(texts.signIn.notEnabled)
      if (signInState.status === 'signing') return
      signInState = { ...signInState, status: 'signing', error: undefined }
      changed()
      try {
        if (!connection || !origin || !options.loadSignIn)
          throw new Errors.InternalError(texts.signIn.noAccount)
        const flow = await options.loadSignIn()
        const session = await flow.signIn({
          connection,
          origin,
          statement: siwx.statement,
          resources: siwx.resources,
          expiresIn: siwx.expiresIn,
          api: options.api,
          sign: (request) => walletRequest(connection, request),
          now,
        })
        const key = storageKey(connection)
        if (key) {
          storage.setSession(key, session)
          confirmed.add(key)
        }
        signInState = { status: 'idle', required: Boolean(siwx.required) }
        updateLock()
        router.send({ type: 'CLOSE', force: true })
        changed()
        void options.api.track(
          { event: 'SIWX_AUTH_SUCCESS', properties: { network: connection.chainId } },
          origin,
        )
      } catch (error) {
        const rejected = codeOf(error) === Errors.UserRejectedRequestError.code
        const message = rejected ? texts.signIn.declined : messageOf(error, texts.errors.fallback)
        signInState = { ...signInState, status: rejected ? 'declined' : 'failed', error: message }
        snackbar.show('error', message)
        startShake()
        void options.api.track(
          {
            event: 'SIWX_AUTH_ERROR',
            properties: { network: connection ? connection.chainId : '', message },
          },
          origin ?? '',
        )
      }
    },
    async cancelSignIn() {
      signInState = { status: 'idle', required: Boolean(siwx?.required) }
      if (siwx?.required) {
        // Without a session the visitor cannot stay: disconnecting returns the modal to Connect.
        await disconnectAll().catch(() => {})
        updateLock()
        router.send({ type: 'OPEN', view: 'Connect' })
        return
      }
      router.send({ type: 'CLOSE', force: true })
    },
    showAllWallets() {
      router.send({ type: 'PUSH', view: 'AllWallets' })
      withFlow((f) => f.registry.open())
    },
    imageUrl: (listing) => options.api.imageUrl(listing.image_id),
    showNetworks() {
      router.send({ type: 'PUSH', view: 'Networks' })
    },
    async switchNetwork(id) {
      const network = configured(id)
      if (!network) return
      snackbar.show('loading', texts.networks.switching(network.name))
      try {
        await switchTo(network)
        snackbar.show('success', texts.networks.switched(network.name))
        if (Router.currentView(router.getSnapshot().context) !== 'UnsupportedChain')
          router.send({ type: 'BACK' })
      } catch (error) {
        snackbar.show('error', messageOf(error, texts.networks.failed))
        startShake()
      }
    },
    async disconnect() {
      try {
        await disconnectAll()
        router.send({ type: 'CLOSE' })
      } catch {
        // disconnectAll told the user.
      }
    },
    resized(height) {
      host?.resize({ height: Math.min(10_000, Math.max(0, Math.ceil(height))) }).catch(() => {})
    },
    copied(ok) {
      if (ok) snackbar.show('success', texts.account.copied)
      else {
        snackbar.show('error', texts.account.copyFailed)
        startShake()
      }
    },
  }

  function alert(kind: AlertKind, detail?: string) {
    if (alerts.some((item) => item.kind === kind)) return
    const text = alertTexts[kind]
    alerts = [...alerts, { kind, title: text.title, detail: detail ?? text.detail }]
    changed()
  }
  if (options.configError) alert('invalidConfig', options.configError)

  return {
    api,
    start,
    alert,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getSnapshot() {
      snapshot ??= build()
      return snapshot
    },
    ui,
    get registry() {
      return wc?.registry
    },
  }
}

// ---- helpers ----

function addresses(connection: Connection.Connection): string[] {
  return connection.accounts.map((account) => account.address)
}

function connectResult(connection: Connection.Connection) {
  return {
    accounts: connection.accounts.map(({ address, publicKey, chains }) => ({
      address,
      publicKey: publicKey ?? new Uint8Array(),
      chains: chains ?? [Injected.standardName(connection.chainId)],
    })),
  }
}

function switchTarget(params: Schema.Eip155Request['params']): string {
  const first: unknown = Array.isArray(params) ? params[0] : undefined
  const chainId =
    typeof first === 'object' && first !== null ? (first as { chainId?: unknown }).chainId : undefined
  if (typeof chainId !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(chainId))
    throw new Errors.InvalidParamsError('Expected [{ chainId: "0x…" }].')
  return chainId
}

// MetaMask mobile wraps 4902 in an internal error's `data.originalError`.
function isUnrecognizedChain(error: unknown): boolean {
  const code = codeOf(error)
  if (code === Errors.UnrecognizedChainError.code) return true
  const data = (error as { data?: { originalError?: unknown } } | undefined)?.data
  return codeOf(data?.originalError) === Errors.UnrecognizedChainError.code
}

function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'number' ? code : undefined
}

function messageOf(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | undefined)?.message
  return typeof message === 'string' && message ? message : fallback
}

function failureOf(error: unknown): Connection.Failure {
  return {
    code: codeOf(error) ?? Errors.InternalError.code,
    message: messageOf(error, texts.errors.fallback),
  }
}

function sameNamespace(id: Caip.ChainId | undefined, namespace: Caip.Namespace): boolean {
  return id?.startsWith(`${namespace}:`) ?? false
}

function unique(list: PageWallet[]): PageWallet[] {
  return list.filter((wallet, index) => list.findIndex((other) => other.id === wallet.id) === index)
}

// Wallets announced before the list arrived (through walletsChanged) are kept.
function mergeWallets(known: PageWallet[], listed: PageWallet[]): PageWallet[] {
  return [...listed, ...known.filter((wallet) => !listed.some((other) => other.id === wallet.id))]
}

function withTimeout<T>(promise: Promise<T>, ms: number, timers: Snackbar.Timers): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(new Errors.InternalError(texts.errors.walletTimeout)), ms)
    promise.then(
      (value) => {
        timers.clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        timers.clearTimeout(timer)
        reject(error)
      },
    )
  })
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}
