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
  /** An event a page wallet sent through the host. */
  hostEvent?(event: WalletEvent): void
  /** A connection is being made outside the modal (a pairing a phone has not answered yet). */
  pending?(): boolean
}

/** Builds a connector once the core can lend it its context. */
export type ConnectorFactory = (context: ConnectorContext) => Connector
