/**
 * The connection store: one connection machine per namespace, the connectors that reach the wallets, and
 * the page's own wallets. It knows no kind of wallet: each connection's wallet belongs to the first
 * connector that owns it.
 */
import {
  Async,
  Caip,
  Errors,
  type PageWallet,
  type Request,
  type WalletEvent,
} from '@airlock/bridge-protocol'
import { createActor } from 'xstate'
import type {
  Connector,
  ConnectorContext,
  ConnectorFactory,
  Host,
  WalletChange,
} from '../connectors/Connector.ts'
import { injected } from '../connectors/injected/connector.ts'
import type { Network } from '../shared/Network.ts'
import { texts } from '../shared/texts.ts'
import * as Connection from './Connection.ts'
import type { Timers } from './Snackbar.ts'
import { keyOf, type Storage, type WalletKey } from './Storage.ts'

/**
 * Wallets never listed (excluded by rdns or name): Airlock's own providers, which the host page also
 * carries. Connecting Airlock through itself would loop. The host SDK filters them too.
 */
const excluded: readonly { rdns?: string; name?: string }[] = [{ rdns: 'dev.airlock' }, { name: 'Airlock' }]

const isExcluded = (wallet: PageWallet) =>
  excluded.some((rule) => (rule.rdns !== undefined && wallet.rdns === rule.rdns) || rule.name === wallet.name)

type Actor = ReturnType<typeof createActor<typeof Connection.machine>>

export type Options = {
  storage: Storage
  timers: Timers
  /** How long a silent reconnect may take before the wallet counts as gone. */
  reconnectTimeout: number
  /** How long to wait for a stored wallet to announce itself on the page. */
  walletGrace: number
  networks: () => readonly Network[]
  namespaces: () => ReadonlySet<Caip.Namespace>
  /**
   * The namespace's network a connector reports when its wallet names none that is configured. Always one of
   * that namespace: a login that connects EVM and Solana at once must not put its Solana account on the
   * EVM network the dApp is on.
   */
  fallbackIn: (namespace: Caip.Namespace) => Caip.ChainId | undefined
  /**
   * The namespace the dApp is on. A wallet connecting it and others at once connects it first, so the host
   * never sees another namespace's account as the active one on the way.
   */
  chosenNamespace: () => Caip.Namespace | undefined
  /** The page's wallet list changed. */
  changed: () => void
  /** Every transition of a namespace's machine, with the snapshot before it. */
  onTransition: (
    namespace: Caip.Namespace,
    before: Connection.ConnectionSnapshot,
    next: Connection.ConnectionSnapshot,
  ) => void
}

export type Connections = ReturnType<typeof create>

export function create(options: Options) {
  const { storage, timers } = options
  let host: Host | undefined
  let wallets: PageWallet[] = []
  let watchers: (() => void)[] = []
  // Wallet-side changes are applied one after another (see ConnectorContext.update).
  let queue = Promise.resolve()
  // Features add theirs as they load; the page's wallets are asked last, as they own any wallet.
  const added: Connector[] = []

  const context: ConnectorContext = {
    host: () => (host ? Promise.resolve(host) : Promise.reject(new Errors.DisconnectedError())),
    wallets: () => pageWallets(),
    networks: options.networks,
    namespaces: options.namespaces,
    connectionOf: (namespace) => connectionOf(namespace),
    update(namespace, walletId, change) {
      const current = () => connectionOf(namespace)?.wallet.id === walletId
      queue = queue
        .then(async () => {
          if (!current()) return
          const next = await change()
          // The visitor may have replaced the wallet while its change was being checked.
          if (next && current()) apply(namespace, next)
        })
        .catch(() => {})
    },
    approved: (wallet) => actors[wallet.namespace].send({ type: 'CONNECT', wallet }),
  }

  const fallback = injected(context)
  const all = (): Connector[] => [...added, fallback]
  const connectorOf = (wallet: { id: string }) =>
    all().find((connector) => connector.owns(wallet)) as Connector
  /** The connector that made a stored connection, if it is on in this build and page. */
  const makerOf = (key: WalletKey) => all().find((connector) => connector.id === key.connector)
  // The page's wallets, except any whose id another connector owns: the host page cannot pose as one.
  const pageWallets = () => wallets.filter((wallet) => connectorOf(wallet) === fallback)

  function apply(namespace: Caip.Namespace, change: WalletChange) {
    const actor = actors[namespace]
    if (change.type === 'accountsChanged') actor.send({ type: 'ACCOUNTS_CHANGED', accounts: change.accounts })
    else if (change.type === 'chainChanged') actor.send({ type: 'CHAIN_CHANGED', chainId: change.chainId })
    else actor.send({ type: 'DISCONNECT' })
  }

  const failureOf = (error: unknown): Connection.Failure => ({
    code: Errors.codeOf(error) ?? Errors.InternalError.code,
    message: Errors.messageOf(error, texts.errors.fallback),
  })

  const actors = Object.fromEntries(
    Caip.namespaces.map((namespace) => {
      const logic = Connection.machine.provide({
        actions: {
          reconnect: ({ self }, { wallet, attempt }) => {
            const connecting = connectorOf(wallet).connect(wallet, {
              silent: true,
              fallback: options.fallbackIn(namespace),
            })
            const timedOut = () => new Errors.InternalError(texts.errors.walletTimeout)
            Async.withTimeout(connecting, options.reconnectTimeout, timedOut, timers)
              .then(async (connection) => {
                await chosenFirst(namespace, wallet)
                self.send({ type: 'SUCCEEDED', attempt, connection })
              })
              .catch((error: unknown) => self.send({ type: 'FAILED', attempt, failure: failureOf(error) }))
          },
          prompt: ({ self }, { wallet, attempt }) => {
            connectorOf(wallet)
              .connect(wallet, { silent: false, fallback: options.fallbackIn(namespace) })
              .then(async (connection) => {
                await chosenFirst(namespace, wallet)
                self.send({ type: 'SUCCEEDED', attempt, connection })
              })
              .catch((error: unknown) => self.send({ type: 'FAILED', attempt, failure: failureOf(error) }))
          },
          remember: (_, { wallet }) => {
            storage.addConnection({ ...keyOf(wallet), connector: connectorOf(wallet).id })
            storage.addRecentWallet(keyOf(wallet))
          },
          forget: () => storage.clearConnections(namespace),
        },
      })
      return [namespace, createActor(logic, { input: { namespace } })]
    }),
  ) as Record<Caip.Namespace, Actor>

  for (const namespace of Caip.namespaces) {
    let before = actors[namespace].getSnapshot()
    actors[namespace].subscribe((next) => {
      const previous = before
      before = next
      options.onTransition(namespace, previous, next)
    })
  }

  const connectionOf = (namespace: Caip.Namespace) => Connection.connectionOf(actors[namespace].getSnapshot())

  /**
   * Whether the namespace is connected to the wallet, or being connected to it (prompted, or tried as the
   * reconnect's current candidate): one wallet that serves several namespaces connects each in turn.
   */
  function servedBy(namespace: Caip.Namespace, wallet: { id: string }): boolean {
    const { value, context } = actors[namespace].getSnapshot()
    const wallets = [
      context.connection?.wallet,
      value === 'prompting' ? context.prompt?.wallet : undefined,
      value === 'reconnecting' ? context.candidates[0] : undefined,
    ]
    return wallets.some((other) => other?.id === wallet.id)
  }

  /** Resolves once the dApp's namespace, if the same wallet is connecting it too, has connected or failed. */
  function chosenFirst(namespace: Caip.Namespace, wallet: PageWallet): Promise<void> {
    const chosen = options.chosenNamespace()
    if (!chosen || chosen === namespace) return Promise.resolve()
    const actor = actors[chosen]
    const waiting = () => {
      const { value } = actor.getSnapshot()
      return (value === 'prompting' || value === 'reconnecting') && servedBy(chosen, wallet)
    }
    if (!waiting()) return Promise.resolve()
    return new Promise((resolve) => {
      const subscription = actor.subscribe(() => {
        if (waiting()) return
        subscription.unsubscribe()
        resolve()
      })
    })
  }

  /** This connector's other live connections. */
  const othersOf = (namespace: Caip.Namespace, connector: Connector) =>
    Caip.namespaces.flatMap((ns) => {
      const connection = ns === namespace ? undefined : connectionOf(ns)
      return connection && connectorOf(connection.wallet) === connector ? [connection] : []
    })

  /** Ends a connection on the wallet's side. */
  function disconnectWallet(namespace: Caip.Namespace, connection: Connection.Connection): Promise<void> {
    const connector = connectorOf(connection.wallet)
    return connector.disconnect(connection, othersOf(namespace, connector))
  }

  async function disconnect(namespace: Caip.Namespace) {
    const connection = connectionOf(namespace)
    if (!connection) return
    await disconnectWallet(namespace, connection)
    actors[namespace].send({ type: 'DISCONNECT' })
  }

  function waitForWallets(done: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        timers.clearTimeout(timer)
        watchers = watchers.filter((watcher) => watcher !== check)
        resolve()
      }
      const check = () => {
        if (done()) finish()
      }
      const timer = timers.setTimeout(finish, ms)
      watchers.push(check)
    })
  }

  function settled(namespace: Caip.Namespace): Promise<void> {
    const actor = actors[namespace]
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

  return {
    actors,
    connectionOf,
    connectorOf,
    servedBy,
    anyConnected: () => Caip.namespaces.some((namespace) => connectionOf(namespace)),
    send: (namespace: Caip.Namespace, event: Connection.ConnectionEvent) => actors[namespace].send(event),
    sendAll: (event: Connection.ConnectionEvent) => {
      for (const namespace of Caip.namespaces) actors[namespace].send(event)
    },
    add: (factory: ConnectorFactory) => void added.push(factory(context)),
    /** A connector's connection in progress outside the machines (a pairing) counts as connecting. */
    status(): 'connected' | 'connecting' | 'reconnecting' | 'disconnected' {
      const statuses = Caip.namespaces.map((namespace) =>
        Connection.statusOf(actors[namespace].getSnapshot()),
      )
      if (statuses.includes('connected')) return 'connected'
      if (all().some((connector) => connector.pending?.())) return 'connecting'
      if (statuses.includes('reconnecting')) return 'reconnecting'
      if (statuses.includes('connecting')) return 'connecting'
      return 'disconnected'
    },
    wallets: pageWallets,
    /** The page's wallet list changed (announcements arrive over time). */
    setWallets(list: readonly PageWallet[]) {
      wallets = list.filter((wallet) => !isExcluded(wallet))
      for (const watcher of [...watchers]) watcher()
      options.changed()
    },
    /**
     * Runs a request on the wallet behind the connection. Bytes a dApp asks a Solana wallet to sign as a
     * message that are a transaction's message never reach it, whichever wallet it is (Phantom refuses
     * them too): the signature would be that transaction signed, while the visitor saw only bytes.
     */
    async request(connection: Connection.Connection, request: Request) {
      if (request.namespace === 'solana' && request.method === 'solana:signMessage')
        (await import('../shared/solana/Message.ts')).refuseTransaction(request.params.message)
      return connectorOf(connection.wallet).request(connection, request)
    },
    /** The EIP-5792 batches the connection's wallet runs itself, if its connector has any. */
    batchesOf: (connection: Connection.Connection) => connectorOf(connection.wallet).batches,
    switchChain: (connection: Connection.Connection, network: Network) =>
      connectorOf(connection.wallet).switchChain?.(connection, network),
    hostEvent(event: WalletEvent) {
      for (const connector of all()) connector.hostEvent?.(event)
      return queue
    },
    disconnect,
    disconnectWallet,
    /**
     * Ends every connection; rejects with the first wallet's refusal after trying all. One after another, so
     * a session that serves several namespaces (WalletConnect) sees its last one go and ends on the wallet's
     * side too.
     */
    async disconnectAll() {
      let failure: { reason: unknown } | undefined
      for (const namespace of Caip.namespaces)
        await disconnect(namespace).catch((reason: unknown) => {
          failure ??= { reason }
        })
      if (failure) throw failure.reason
    },
    /**
     * Attaches the host (connectors can reach page wallets from now on) and lists its wallets. Wallets
     * announced before the list arrived (through walletsChanged) are kept.
     */
    async attach(next: Host) {
      host = next
      const listed = (await next.listWallets().catch(() => [] as PageWallet[])).filter(
        (wallet) => !isExcluded(wallet),
      )
      wallets = [...listed, ...wallets.filter((wallet) => !listed.some((other) => other.id === wallet.id))]
      options.changed()
    },
    /**
     * Reconnects what storage remembers, each through the connector that made it. A page wallet may
     * announce itself a moment after the page loads, so a stored one not yet there is waited for, briefly.
     */
    async reconnect(namespaces: ReadonlySet<Caip.Namespace>, grace: number) {
      const stored = Caip.namespaces.map(
        (namespace) => [namespace, storage.getConnections(namespace)] as const,
      )
      // A connection whose connector is off here has nothing to wait for; one made elsewhere (a phone) neither.
      const ready = (key: WalletKey, namespace: Caip.Namespace) => {
        const maker = makerOf(key)
        return !maker?.announced || maker.restore(key, namespace) !== undefined
      }
      const missing = () =>
        stored.some(([namespace, keys]) => keys.length > 0 && !keys.some((key) => ready(key, namespace)))
      if (missing()) await waitForWallets(() => !missing(), grace)
      for (const [namespace, keys] of stored) {
        const candidates = namespaces.has(namespace)
          ? unique(keys.flatMap((key) => makerOf(key)?.restore(key, namespace) ?? []))
          : []
        actors[namespace].send({ type: 'RECONNECT', candidates })
      }
      await Promise.all(Caip.namespaces.map((namespace) => settled(namespace)))
    },
    run() {
      for (const namespace of Caip.namespaces) actors[namespace].start()
    },
  }
}

function unique(list: PageWallet[]): PageWallet[] {
  return list.filter((wallet, index) => list.findIndex((other) => other.id === wallet.id) === index)
}
