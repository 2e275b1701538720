/**
 * The modal's kernel: the view router, one connection per namespace, the networks, and the features that
 * plug into them. It implements the API the host calls (`HostApi.ts`), pushes every state change to the
 * host and gives the views one snapshot to render. It touches no DOM and knows no feature: storage, the
 * network registry, the API client, timers and the features are handed in.
 */
import { type Caip, Errors, Views } from '@airlock/bridge-protocol'
import { createActor } from 'xstate'
import type { Host } from '../connectors/Connector.ts'
import { walletSupports } from '../shared/Network.ts'
import { texts } from '../shared/texts.ts'
import * as Alerts from './Alerts.ts'
import * as Analytics from './Analytics.ts'
import type { Config } from './Config.ts'
import * as Connections from './Connections.ts'
import type { ApiClient, ConnectRows, Feature, Kernel, ViewSpec } from './Feature.ts'
import * as Features from './Features.ts'
import * as HostApi from './HostApi.ts'
import * as Networks from './Networks.ts'
import * as Reactions from './Reactions.ts'
import * as Router from './Router.ts'
import * as Snackbar from './Snackbar.ts'
import * as Snapshot from './Snapshot.ts'
import type { Storage } from './Storage.ts'

export type Modal = {
  /** The implementation of `Schema.modalApi`, handed to `Messenger.create` at once on handshake. */
  api: HostApi.ModalApi
  /** Attaches the host after the handshake: lists its wallets and reconnects. */
  start(session: { host: Host; origin: string }): Promise<void>
  /**
   * Does, while the frame is hidden, what the first show would: the networks named by the project's API
   * (once the registry is in), each feature's first-show work (code loaded, nothing sent to third parties).
   * The host's `open` then only flips state.
   */
  prepare(): void
  /** Replaces the content with an alert; `onDismiss` is told when the visitor closes it. */
  alert(kind: Alerts.Kind, detail?: string, onDismiss?: () => void): void
  subscribe(listener: () => void): () => void
  getSnapshot(): Snapshot.Snapshot
  /** What the views may do: the core's actions and every feature's. */
  ui: Snapshot.Ui
  /** The views of the core and the enabled features, by name. */
  views: ReadonlyMap<string, ViewSpec>
  /** The rows features add to Connect's list. */
  connectRows: readonly ConnectRows[]
}

/** Options of {@link create}. */
export type Options = {
  config: Config
  /** Set when the host's config could not be used: the modal shows it and refuses requests. */
  configError?: string | undefined
  storage: Storage
  api: ApiClient
  loadRegistry: () => Promise<Networks.Registry>
  features: readonly Feature[]
  /** @default false */
  mobile?: boolean
  /** @default Snackbar.realTimers */
  timers?: Snackbar.Timers
  /** How long a silent reconnect may take before the wallet counts as gone. @default 10_000 */
  reconnectTimeout?: number
  /** How long to wait for a stored wallet to announce itself on the page. @default 600 */
  walletGrace?: number
  /** @default Date.now */
  now?: () => number
}

/**
 * @example
 * const modal = Modal.create({ config, storage, api, loadRegistry, features })
 * const messenger = Messenger.create({ port, local: Schema.modalApi, implementation: modal.api, peer: Schema.hostApi })
 * modal.start({ host: messenger.remote, origin })
 */
export function create(options: Options): Modal {
  const { config, storage, timers = Snackbar.realTimers, now = Date.now } = options
  let host: Host | undefined
  let origin: string | undefined
  let snapshot: Snapshot.Snapshot | undefined
  const listeners = new Set<() => void>()
  const alerts = Alerts.create(() => changed())
  const snackbar = Snackbar.create({ onChange: () => changed(), timers })
  const shake = Snackbar.shaker(timers, () => changed())
  const analytics = Analytics.create({
    features: config.features,
    enabled: () => options.api.analyticsEnabled?.() ?? Promise.resolve(false),
    send: (event) => void options.api.track(event, origin ?? ''),
    now,
    changed: () => changed(),
    choice: { get: storage.getAnalyticsChoice, set: storage.setAnalyticsChoice },
  })

  const networks = Networks.create({
    ids: config.networks,
    storage,
    connectionOf: (namespace) => connections.connectionOf(namespace),
    changed: () => changed(),
    sources: { rpcUrls: config.rpcUrls, custom: config.customNetworks },
    chains: options.api.supportedChains?.bind(options.api),
  })
  const connections = Connections.create({
    storage,
    timers,
    reconnectTimeout: options.reconnectTimeout ?? 10_000,
    walletGrace: options.walletGrace ?? 600,
    networks: () => networks.list(),
    namespaces: () => networks.namespaces(),
    fallbackIn: (namespace) => networks.currentIn(namespace),
    chosenNamespace: () => networks.chosenNamespace(),
    changed: () => changed(),
    onTransition: (namespace, before, next) => {
      const pageWallet = (step: typeof next) => step.context.prompt?.wallet ?? step.context.connection?.wallet
      const wallet = pageWallet(next) ?? pageWallet(before)
      const event = Analytics.connectEvent(
        { value: String(before.value), wallet: pageWallet(before) },
        { value: String(next.value), wallet: pageWallet(next), failure: next.context.prompt?.failure },
        wallet !== undefined && connections.wallets().some((listed) => listed.id === wallet.id),
      )
      if (event) analytics.track(event)
      reactions.transition(namespace, before, next)
      changed()
    },
  })
  const router = createActor(Router.machine.provide({ actions: { closed: () => reactions.closed() } }), {
    input: {
      embedded: config.embedded ?? false,
      mobile: options.mobile ?? false,
      adapters: networks.namespaces().size > 0,
      connected: false,
    },
  })
  const currentView = () => Router.currentView(router.getSnapshot().context)

  const kernel: Kernel = {
    config,
    storage,
    timers,
    now,
    api: options.api,
    mobile: options.mobile ?? false,
    origin: () => origin,
    host: () => host,
    router: {
      send: (event) => router.send(event),
      view: currentView,
      isOpen: () => Router.isOpen(router.getSnapshot()),
    },
    snackbar,
    track: (event) => analytics.track(event),
    shake: () => shake.start(),
    changed: () => changed(),
    connectionOf: (namespace) => connections.connectionOf(namespace),
    activeNamespace: () => networks.activeNamespace(),
    configured: (id) => networks.configured(id),
    known: (id) => networks.known(id),
    networks: () => networks.list(),
    currentIn: (namespace) => networks.currentIn(namespace),
    wallets: () => connections.wallets(),
    walletRequest: (connection, request) => connections.request(connection, request),
    batchesOf: (connection) => connections.batchesOf(connection),
    disconnect: (namespace) => disconnect(namespace),
    transacted(namespace) {
      for (const transacted of each('transacted')) transacted(namespace)
    },
    switchTo: (network) => switchTo(network),
    addConnector: (factory) => connections.add(factory),
  }

  const features = Features.create({ features: options.features, config, kernel, changed: () => changed() })
  const { each, views } = features

  const hostApi = HostApi.create({
    kernel,
    connections,
    networks,
    router,
    configError: options.configError,
    canOpen,
    // Internal screens never cross the wire: the host sees the public view they belong to.
    publicView(view) {
      const name = views.get(view)?.public ?? view
      return Views.isPublicView(name) ? name : 'Connect'
    },
    enter: (view) =>
      features.whenLoaded(() => {
        for (const entered of each('entered')) entered(view)
      }),
    opened: () => {
      for (const opened of each('opened')) opened()
    },
    requested: (request, result) => {
      for (const requested of each('requested')) requested(request, result)
    },
    answer(request, connection) {
      for (const answer of each('answer')) {
        const answered = answer(request, connection)
        if (answered) return answered
      }
      return undefined
    },
    state: () => Object.assign({}, ...each('state').map((state) => state())),
    canSignOut: features.canSignOut,
    signOut: () => features.signOut(),
    canPay: features.canPay,
    pay: (payment) => features.pay(payment),
  })

  const reactions = Reactions.create({
    config,
    networks,
    connections,
    router,
    hostApi,
    snackbar,
    shake,
    hooks: (key) => each(key),
  })

  // ---- switching and disconnecting ----

  async function switchTo(network: Parameters<Kernel['switchTo']>[0]) {
    const connection = connections.connectionOf(network.namespace)
    if (connection) {
      const { wallet } = connection
      if (!walletSupports(connection, network))
        throw new Errors.UnsupportedChainError(texts.networks.notInWallet(wallet.name, network.name))
      await connections.switchChain(connection, network)
      // The wallet also sends chainChanged; applying it here keeps the answer and the state in step.
      connections.send(network.namespace, { type: 'CHAIN_CHANGED', chainId: network.id })
    }
    networks.setActive(network.id)
  }

  async function disconnect(namespace?: Caip.Namespace) {
    try {
      await (namespace ? connections.disconnect(namespace) : connections.disconnectAll())
    } catch (error) {
      console.error('[airlock] Failed to disconnect', error)
      snackbar.show('error', texts.errors.failedToDisconnect)
      shake.start()
      throw new Errors.InternalError(texts.errors.failedToDisconnect, { cause: error })
    }
  }

  function canOpen(view: string): boolean {
    if (view === 'Account') return connections.anyConnected()
    if (view === 'UnsupportedChain')
      return Reactions.onUnsupportedChain(connections, networks) && (features.canOpen(view) ?? true)
    if (!views.has(view)) return false
    return features.canOpen(view) ?? true
  }

  // ---- state ----

  /** `next`: the snapshot as it now is, where the change is known to leave the rest of it as it was. */
  function changed(next?: Snapshot.Snapshot) {
    snapshot = next
    if (host) hostApi.publish(host)
    for (const listener of listeners) listener()
  }

  const build = Snapshot.builder({
    kernel,
    config,
    router,
    connections,
    networks,
    alerts,
    snackbar,
    shake,
    filter: () => hostApi.filter(),
    origin: () => origin,
    slices: () => [analytics.slice(), ...each('snapshot').map((slice) => slice())],
    accountFields: (namespace, connection) =>
      Object.assign({}, ...each('account').map((fields) => fields(namespace, connection))),
  })

  const ui = features.ui({
    analyticsNoticeShown: () => analytics.noticeShown(),
    dismissAnalyticsNotice: () => analytics.dismiss(),
    declineAnalytics: () => analytics.decline(),
    ...Snapshot.coreUi({
      kernel,
      connections,
      router,
      retry: () => each('retry'),
      back: () => each('back'),
      dismissAlerts: () => alerts.dismiss(),
      activate: (chainId) => networks.setActive(chainId),
    }),
  })

  // Once the visitor is looking (never before), the API names the networks no other source knows.
  const nameNetworks = () => void networks.name().then((named) => named && reactions.named())
  let open = false
  let prepared = false
  let shownView = currentView()
  router.subscribe((snap) => {
    const opening = !open && Router.isOpen(snap)
    const closing = open && !Router.isOpen(snap)
    open = Router.isOpen(snap)
    if (closing) analytics.closed()
    if (shownView !== currentView()) snackbar.left()
    shownView = currentView()
    if (opening) nameNetworks()
    if (opening) void analytics.check()
    if (opening)
      features.whenLoaded(() => {
        if (open) for (const shown of each('shown')) shown()
      })
    // Opening shows the view already rendered behind the hidden frame: only `open` changes for the views.
    changed(opening || closing ? Snapshot.reopened(snapshot, snap) : undefined)
  })
  router.start()
  connections.run()
  if (options.configError) alerts.add('invalidConfig', options.configError)

  return {
    api: hostApi.api,
    async start(session) {
      host = session.host
      origin = session.origin
      // Asked while the frame is still hidden, so a notice is part of the card's first frame, not a jump after.
      void analytics.check()
      changed()
      try {
        const [registry] = await Promise.all([
          options.loadRegistry(),
          features.loaded,
          connections.attach(session.host),
        ])
        networks.load(registry)
        if (open || prepared) nameNetworks()
        router.send({ type: 'ADAPTERS', adapters: networks.namespaces().size > 0 })
        await connections.reconnect(networks.namespaces(), options.walletGrace ?? 600)
        for (const settled of each('settled')) settled()
      } finally {
        hostApi.ready()
        changed()
      }
    },
    prepare() {
      prepared = true
      nameNetworks()
      features.whenLoaded(() => {
        for (const shown of each('shown')) shown()
      })
    },
    alert: (kind, detail, onDismiss) => alerts.add(kind, detail, onDismiss),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getSnapshot() {
      snapshot ??= build()
      return snapshot
    },
    ui,
    views,
    connectRows: features.connectRows,
  }
}
