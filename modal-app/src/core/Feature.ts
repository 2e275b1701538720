/**
 * How a feature plugs into the core. A feature is a folder with a `feature.ts` that names its views and,
 * once `load` has brought in its logic, gets the kernel and answers with what it adds: a slice of the snapshot, actions for its
 * views, reactions to connections, host methods. Deleting the folder and its line in `features/index.ts`
 * removes it completely.
 */
import type { Caip, PageWallet, Request, Schema, State } from '@airlock/bridge-protocol'
import type { ConnectMethod, ConnectorType, Switch, WalletFeature } from '@airlock/bridge-protocol/Features'
import * as Switches from '@airlock/bridge-protocol/Features'
import type { ComponentType } from 'react'
import type * as Api from '../api/Api.ts'
import type { Batches, ConnectorFactory, Host } from '../connectors/Connector.ts'
import type { Network } from '../shared/Network.ts'
import type { Config } from './Config.ts'
import type { Connection } from './Connection.ts'
import type { RouterEvent } from './Router.ts'
import type { Snackbar, Timers } from './Snackbar.ts'
import type { Storage } from './Storage.ts'

/** What the modal asks the API; without `supportedChains`, only the registry and the host name networks. */
export type ApiClient = Pick<
  Api.Client,
  'balances' | 'wallets' | 'imageUrl' | 'track' | 'nonce' | 'signIn' | 'sessions'
> &
  // Reads only some features make; a client without them (a test's) leaves those features' error states.
  Partial<
    Pick<Api.Client, 'supportedChains' | 'history' | 'nfts' | 'endpoint' | 'identity' | 'analyticsEnabled'>
  >

/** What the core lends every feature. */
export type Kernel = {
  config: Config
  storage: Storage
  timers: Timers
  now: () => number
  api: ApiClient
  mobile: boolean
  /** The host's origin as the browser reported it at the handshake; undefined before it. */
  origin(): string | undefined
  /** The host's bridge, after the handshake. */
  host(): Host | undefined
  router: {
    send(event: RouterEvent): void
    view(): string
    isOpen(): boolean
  }
  snackbar: Snackbar
  /**
   * Records an analytics event for this page, only with the visitor's consent or after the modal showed its
   * notice, within docs/behaviour.md §9's cap (see `Analytics.ts`). Never throws.
   */
  track(event: { event: string; properties?: Record<string, unknown> }): void
  /** Shakes the card, as after a failure. */
  shake(): void
  /** Something the views show changed. */
  changed(): void
  connectionOf(namespace: Caip.Namespace): Connection | undefined
  /** The namespace whose account the modal shows. */
  activeNamespace(): Caip.Namespace | undefined
  /** The configured network of that id, if any. */
  configured(id: string | undefined): Network | undefined
  /** A network the modal knows by that id, configured or not (to name the chain a wallet is on). */
  known(id: string): Network | undefined
  networks(): readonly Network[]
  /** The namespace's network: its account's, else the one chosen there, else its first configured. */
  currentIn(namespace: Caip.Namespace): Caip.ChainId | undefined
  /** The wallets the host page announced. */
  wallets(): readonly PageWallet[]
  /** Runs a request on the wallet behind the connection. */
  walletRequest(connection: Connection, request: Request): Promise<unknown>
  /**
   * The EIP-5792 batches the connection's wallet runs itself (`Connector.batches`), if its connector has
   * any. Optional only so kernels built by hand in tests may leave it out.
   */
  batchesOf?(connection: Connection): Batches | undefined
  /** Ends the namespace's connection, or every one; tells the visitor and throws when a wallet refused. */
  disconnect(namespace?: Caip.Namespace): Promise<void>
  /** A transaction the modal sent (Send, a swap) settled on the namespace's chain: what shows it is stale. */
  transacted(namespace: Caip.Namespace): void
  /** Moves the namespace's wallet to a configured network. */
  switchTo(network: Network): Promise<void>
  /** Adds a way to reach wallets; connectors are asked in the order they were added, page wallets last. */
  addConnector(factory: ConnectorFactory): void
}

/** A view a feature adds. `name` is the router's; a host can ask for it only if it is a public view. */
export type ViewSpec<P = ViewProps> = {
  name: string
  /** The card's heading while it shows. */
  title(snapshot: CoreSnapshotLike): string
  /** Loaded on first use (a dynamic import), so the view is not in the first chunk. */
  component: ComponentType<P>
  /** Whether the view's chunk is loaded lazily and needs a loading boundary. @default true */
  lazy?: boolean
  /** The public view the host sees while this internal screen shows. @default the view itself */
  public?: string
}

// Connect's groups (the host may reorder them with `features.connectorTypeOrder`): the page's wallets are
// `recent`, `injected`, `custom` and `external`; features add the others.
export type { ConnectMethod, ConnectorType, WalletFeature } from '@airlock/bridge-protocol/Features'

/**
 * Rows a feature adds to Connect: per group, `last` after every group (All Wallets), the ways in that
 * need no wallet (`email`, `social`), placed by {@link connectMethodOrder}, and `getWallet`: where to get
 * one, under "New to wallets?".
 */
export type ConnectRows = Partial<
  Record<ConnectorType | ConnectMethod | 'last' | 'getWallet', ComponentType<ViewProps>>
>

// biome-ignore lint/suspicious/noExplicitAny: every view takes the merged snapshot and actions of all features.
export type ViewProps = { snapshot: any; ui: any; rows?: readonly ConnectRows[] }
type CoreSnapshotLike = Record<string, unknown>

/** What a feature answers to the kernel. Every member is optional. */
export type Runtime = {
  /** Its slice of the snapshot the views render. */
  snapshot?(): Record<string, unknown>
  /** Fields it adds to each connected account's info (balance, tokens). */
  account?(namespace: Caip.Namespace, connection: Connection): Record<string, unknown>
  /** Actions for its views. */
  ui?: Record<string, unknown>
  /** A host method it implements (`signOut`, `pay`). */
  host?: Partial<Pick<Schema.ModalApi, 'signOut' | 'pay'>>
  /** What it adds to the state mirrored on the host (the sign-in session). */
  state?(): Partial<State>
  /** One of its views was opened directly (by the host, or by the opening rule). */
  entered?(view: string): void
  /** The host opened the modal. */
  opened?(): void
  /** The modal is showing (opened by the host, or by a dApp waiting for a connection). */
  shown?(): void
  /** The modal closed: pending work that nobody looks at any more ends. */
  closed?(): void
  /** The visitor went back from one of its views. */
  back?(view: string): void
  /** The visitor asked to try again. */
  retry?(): void
  /**
   * A connection was made. `byUser` when the visitor just made it (not a reconnect). Answer true when the
   * feature took the visitor somewhere (a sign-in), so the core does not route.
   */
  connected?(namespace: Caip.Namespace, connection: Connection, byUser: boolean): boolean | undefined
  /** The connection's account or chain changed. Answer true when it routed the visitor. */
  changed?(namespace: Caip.Namespace, connection: Connection, what: 'account' | 'chain'): boolean | undefined
  disconnected?(namespace: Caip.Namespace): void
  /** Start-up has settled: every stored connection reconnected or failed. */
  settled?(): void
  /** A transaction the modal sent settled (see {@link Kernel.transacted}). */
  transacted?(namespace: Caip.Namespace): void
  /**
   * A dApp request for the connected wallet that the feature answers itself (EIP-5792 batches, which it
   * checks and then runs or forwards); undefined leaves it to the wallet. The first feature that answers wins.
   */
  answer?(request: Request, connection: Connection): Promise<unknown> | undefined
  /** A dApp request the wallet answered. */
  requested?(request: Request, result: unknown): void
}

/**
 * A feature as the first chunk knows it: its views and Connect rows (each a small component or a lazy
 * chunk) and how to load the rest. `load` is a dynamic import, so a feature's logic is not in the first
 * chunk; the core starts every enabled feature's load at once and waits for them before it reconnects.
 */
export type Feature = {
  id: string
  /** The host's switch for it (`features.allWallets`); a feature without one is always on. */
  switch?: Switch
  views?: readonly ViewSpec[]
  /** Rows it adds to Connect's wallet list. */
  connectRows?: ConnectRows
  /** The host methods it implements (the host learns at once when none does). */
  hostMethods?: readonly (keyof NonNullable<Runtime['host']>)[]
  /**
   * Whether a host may open one of its views now; undefined leaves the decision to the core. Part of the
   * first chunk, so a host asking before the logic has loaded gets the same answer.
   */
  canOpen?(view: string, kernel: Kernel): boolean | undefined
  /** Loads the feature's logic and starts it with the kernel. */
  load(kernel: Kernel): Promise<Runtime>
}

/** Whether the host's configuration leaves the feature on (its switch's default where the host is silent). */
export function isOn(feature: Pick<Feature, 'switch'>, config: Pick<Config, 'features'>): boolean {
  return feature.switch === undefined || Switches.isOn(config, feature.switch)
}

/**
 * The order of Connect's groups: the host's `connectorTypeOrder`, then any group it left out in the default
 * order. Without one, the page's wallets come first: they connect in one click.
 */
export function connectorOrder(config: Pick<Config, 'features'>): ConnectorType[] {
  const chosen = config.features?.connectorTypeOrder ?? []
  const fallback: ConnectorType[] = [
    'recent',
    'injected',
    'walletConnect',
    'featured',
    'custom',
    'external',
    'recommended',
  ]
  return [...new Set([...chosen, ...fallback])]
}

/** The order of Account's actions: the host's `walletFeaturesOrder`, then any it left out in the default order. */
export function walletFeatureOrder(config: Pick<Config, 'features'>): WalletFeature[] {
  return [...new Set([...(config.features?.walletFeaturesOrder ?? []), ...Switches.walletFeatures])]
}

/**
 * The order of Connect's sections: the host's `connectMethodsOrder`, then any it left out in the default
 * order, email first, so that a visitor with no wallet sees a way in at once.
 */
export function connectMethodOrder(config: Pick<Config, 'features'>): ConnectMethod[] {
  return [...new Set([...(config.features?.connectMethodsOrder ?? []), ...Switches.connectMethods])]
}
