/**
 * The one interface every way of reaching a wallet implements: a wallet on the host page (`injected/`), a
 * phone wallet over a WalletConnect session (`walletconnect/`), and later the embedded wallet. The core
 * keeps the connections and asks the connector that owns a wallet to connect, run requests, switch chains
 * and disconnect; it never asks which kind a wallet is. A wallet's quirks live in its connector.
 *
 * The shape follows wagmi's `createConnector`: identity, lifecycle, requests, optional capabilities, and
 * wallet-side changes reported through one channel the core gives it.
 */
import type { Caip, PageWallet, Request, Schema, WalletEvent } from '@airlock/bridge-protocol'
import type * as Calls from '@airlock/bridge-protocol/Calls'
import type { Account, Connection } from '../core/Connection.ts'
import type { WalletKey } from '../core/Storage.ts'
import type { Network } from '../shared/Network.ts'

/** The host's API as the modal calls it. */
export type Host = Schema.Remote<Schema.HostApiContract>

/** A change the wallet made on its side, applied by the core to the namespace's connection. */
export type WalletChange =
  | { type: 'accountsChanged'; accounts: Account[] }
  | { type: 'chainChanged'; chainId: Caip.ChainId }
  | { type: 'disconnect' }

/** What the core lends a connector. */
export type ConnectorContext = {
  /** The host page's bridge; rejects with 4900 before the handshake. */
  host(): Promise<Host>
  /** The wallets the host page announced (EIP-6963 providers, Wallet Standard wallets). */
  wallets(): readonly PageWallet[]
  /** The configured networks. */
  networks(): readonly Network[]
  /** The namespaces the dApp configured (known before the network registry has loaded). */
  namespaces(): ReadonlySet<Caip.Namespace>
  connectionOf(namespace: Caip.Namespace): Connection | undefined
  /**
   * Applies a wallet-side change, in order with every other one: checking an address may be asynchronous,
   * and a chainChanged must not overtake the accountsChanged sent before it. The change applies only if the
   * namespace is still connected to that wallet when its turn comes.
   */
  update(namespace: Caip.Namespace, walletId: string, change: () => Promise<WalletChange | undefined>): void
  /** The wallet approved a connection the core did not ask for (a WalletConnect pairing). */
  approved(wallet: PageWallet): void
}

/**
 * EIP-5792 batches the wallet runs itself: a smart account that executes calls atomically, a page wallet
 * that speaks `wallet_sendCalls`. The core checks every batch first (shape, chain, `from`, id, size,
 * capabilities). Then, for a chain that {@link Batches.capabilities} names, it forwards `wallet_sendCalls`,
 * `wallet_getCallsStatus` and (when {@link Batches.showsStatus}) `wallet_showCallsStatus` to
 * {@link Connector.request} unchanged, and answers `wallet_getCapabilities` with the wallet's own answer.
 * For any other chain the core runs the calls itself, one `eth_sendTransaction` after another, and says so
 * (`atomic: { status: 'unsupported' }`, `atomic: false` in the status).
 *
 * A connector that serves batches answers, in its `request`: `wallet_sendCalls` with `{ id }` (the id the
 * dApp chose, if any, else its own), `wallet_getCallsStatus` with a {@link Calls.Status}, and refuses an id
 * it does not know with {@link Calls.UnknownBundleError}.
 * @example
 * batches: {
 *   capabilities: async (connection, address, chainIds) =>
 *     Object.fromEntries(chainIds.map((id) => [Calls.hexChainIdOf(id), { atomic: { status: 'supported' } }])),
 *   showsStatus: false,
 * }
 */
export type Batches = {
  /**
   * The wallet's capabilities for `address` on `chainIds`, keyed by hex chain id (`0x7a69`), as
   * `wallet_getCapabilities` answers; `0x0` stands for every chain. A chain left out (or a refusal) is one
   * the wallet does not batch on: the core's sequential fallback serves it.
   */
  capabilities(
    connection: Connection,
    address: string,
    chainIds: readonly Caip.ChainId[],
  ): Promise<Calls.Capabilities>
  /** Whether the wallet shows a batch's status itself; otherwise the modal's calls view shows it. */
  showsStatus: boolean
}

/** Options of {@link Connector.connect}. */
type ConnectOptions = {
  /** A reconnect after a reload: the wallet must not prompt. */
  silent: boolean
  /** The network to report when the wallet names none that is configured. */
  fallback?: Caip.ChainId | undefined
}

export type Connector = {
  /** Stable id (`injected`, `walletconnect`). */
  id: string
  /** The connector types of the wallet-connection world: a page wallet is INJECTED, a phone WALLET_CONNECT. */
  type: 'INJECTED' | 'WALLET_CONNECT' | 'AUTH'
  /** Whether this connector drives the wallet. The core asks connectors in order; the first that owns wins. */
  owns(wallet: { id: string }): boolean
  /**
   * Its wallets appear on the page over time (EIP-6963 announcements), so a reconnect after a reload waits
   * a moment for a stored one to show up.
   */
  announced: boolean
  /**
   * The wallet a connection this connector made (`key.connector` is its id) reconnects through; undefined
   * when it is not around.
   */
  restore(key: WalletKey, namespace: Caip.Namespace): PageWallet | undefined
  connect(wallet: PageWallet, options: ConnectOptions): Promise<Connection>
  /** Ends the connection on the wallet's side; `others` are this connector's other live connections. */
  disconnect(connection: Connection, others: readonly Connection[]): Promise<void>
  request(connection: Connection, request: Request): Promise<unknown>
  /** Moves the wallet to the network; without it the connection simply follows the modal's choice. */
  switchChain?(connection: Connection, network: Network): Promise<void>
  /** EIP-5792 batches the wallet runs itself; without it, the core runs every batch call by call. */
  batches?: Batches
  /** An event a page wallet sent through the host. */
  hostEvent?(event: WalletEvent): void
  /** A connection is being made outside the modal (a pairing a phone has not answered yet). */
  pending?(): boolean
}

/** Builds a connector once the core can lend it its context. */
export type ConnectorFactory = (context: ConnectorContext) => Connector
