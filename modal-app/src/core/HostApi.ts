/**
 * The host's side of the modal: the methods of `Schema.modalApi`, the routing of dApp requests to the
 * connected wallets, and the state mirrored on the host. A dApp that asks for accounts while nothing is
 * connected waits here until the visitor connects, or closes the modal (4001).
 */
import {
  Async,
  Caip,
  Errors,
  type Payment,
  type PublicView,
  type Request,
  Schema,
  type State,
  Views,
} from '@airlock/bridge-protocol'
import type { Actor } from 'xstate'
import type { Host } from '../connectors/Connector.ts'
import { standardName } from '../connectors/injected/Injected.ts'
import { toCaip } from '../shared/Network.ts'
import { texts } from '../shared/texts.ts'
import type { Connection } from './Connection.ts'
import type { Connections } from './Connections.ts'
import type { Kernel } from './Feature.ts'
import type { Networks } from './Networks.ts'
import * as Router from './Router.ts'

export type ModalApi = Schema.ModalApi

type Waiter = {
  namespace: Caip.Namespace
  resolve: (connection: Connection) => void
  reject: (error: Errors.BaseError) => void
}

export type Options = {
  kernel: Kernel
  connections: Connections
  networks: Networks
  router: Actor<typeof Router.machine>
  configError?: string | undefined
  canOpen(view: string): boolean
  /** The public view the host sees for a view of the modal's. */
  publicView(view: string): PublicView
  enter(view: string): void
  opened(): void
  requested(request: Request, result: unknown): void
  /** A feature's own answer to a dApp request for the wallet (EIP-5792 batches); undefined when none has one. */
  answer(request: Request, connection: Connection): Promise<unknown> | undefined
  /** What features add to the mirrored state. */
  state(): Partial<State>
  /** Whether an enabled feature implements signOut (sign-in is on). */
  canSignOut: boolean
  /** The sign-out of the feature that has it, once loaded. */
  signOut(): Promise<void>
  /** Whether the host switched Pay on (`features.pay`). */
  canPay: boolean
  /** The payment as the Pay feature runs it: the confirmed transaction's hash. */
  pay(payment: Payment): Promise<string>
}

export function create(options: Options) {
  const { kernel, connections, networks, router } = options
  const ready = Async.deferred<void>()
  let waiters: Waiter[] = []
  /** The namespace the Connect view is narrowed to while a dApp waits for that namespace. */
  let filter: Caip.Namespace | undefined
  let published: string | undefined
  const currentView = () => Router.currentView(router.getSnapshot().context)

  /** Resolves with the namespace's connection, opening Connect and waiting for the user if there is none. */
  function requireConnection(namespace: Caip.Namespace): Promise<Connection> {
    const connection = connections.connectionOf(namespace)
    if (connection) return Promise.resolve(connection)
    if (!networks.namespaces().has(namespace)) return Promise.reject(new Errors.UnsupportedChainError())
    return new Promise((resolve, reject) => {
      const view = currentView()
      const showing =
        Router.isOpen(router.getSnapshot()) && (view === 'Connect' || view === 'ConnectingExternal')
      if (!showing || (filter !== undefined && filter !== namespace)) {
        filter = namespace
        router.send({ type: 'OPEN', view: 'Connect' })
        kernel.changed()
      } else if (filter === undefined && view === 'Connect') {
        // The visitor opened Connect before the dApp asked: only a wallet of this namespace can answer it.
        filter = namespace
        kernel.changed()
      }
      waiters.push({ namespace, resolve, reject })
    })
  }

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
        const connection = connections.connectionOf('eip155')
        return connection ? addresses(connection) : []
      }
      case 'eth_chainId': {
        const chainId = networks.evmChainId()
        if (!chainId) throw new Errors.DisconnectedError()
        return Caip.toHexChainId(chainId)
      }
      case 'wallet_switchEthereumChain': {
        const network = networks.configured(toCaip(switchTarget(req.params)))
        if (network?.namespace !== 'eip155') throw new Errors.UnrecognizedChainError()
        await kernel.switchTo(network)
        return null
      }
    }
    return wallet('eip155', req)
  }

  async function standard(req: Schema.SolanaRequest | Schema.Bip122Request): Promise<unknown> {
    const { namespace } = req
    switch (req.method) {
      case 'standard:connect':
      case 'bitcoin:connect': {
        const silent = req.params?.silent === true
        if (silent && !connections.connectionOf(namespace)) return { accounts: [] }
        return connectResult(await requireConnection(namespace))
      }
      case 'standard:disconnect':
        await connections.disconnect(namespace)
        return undefined
    }
    return wallet(namespace, req)
  }

  /** Everything else goes to the connected wallet of the namespace. */
  async function wallet(namespace: Caip.Namespace, req: Request): Promise<unknown> {
    const connection = connections.connectionOf(namespace)
    if (!connection) throw new Errors.UnauthorizedError()
    const result = await (options.answer(req, connection) ?? connections.request(connection, req))
    options.requested(req, result)
    return result
  }

  function state(): State {
    const snap = router.getSnapshot()
    const namespaces: State['namespaces'] = {}
    for (const namespace of Caip.namespaces) {
      const connection = connections.connectionOf(namespace)
      if (!connection) continue
      namespaces[namespace] = {
        chainId: connection.chainId,
        accounts: connection.accounts.map(({ address, publicKey }) =>
          publicKey ? { address, publicKey } : { address },
        ),
      }
    }
    const namespace = networks.activeNamespace()
    const connection = namespace && connections.connectionOf(namespace)
    const address = connection?.accounts[0]?.address
    const network = networks.current()
    const networkName = network && networks.configured(network)?.name
    return {
      // First, so no feature can stand in for the core's own fields.
      ...options.state(),
      open: Router.isOpen(snap),
      // Internal screens never cross the wire: the host sees the public view they belong to.
      view: options.publicView(Router.currentView(snap.context)),
      status: connections.status(),
      ...(connection && address && Caip.isAccountId(`${connection.chainId}:${address}`)
        ? { caipAddress: Caip.formatAccountId(connection.chainId, address), address }
        : {}),
      ...(network ? { caipNetworkId: network } : {}),
      ...(networkName ? { networkName } : {}),
      ...(connection ? { wallet: walletInfo(connection.wallet) } : {}),
      namespaces,
    }
  }

  const api: ModalApi = {
    open(input) {
      const requested = input?.view
      if (requested !== undefined && !Views.isPublicView(requested)) throw Errors.unknownView(requested)
      const view = requested && options.canOpen(requested) ? requested : undefined
      // The router says what opening changed (Modal.ts); a filter lifted is the one change of its own here.
      const filtered = filter !== undefined
      filter = undefined
      router.send({ type: 'OPEN', view })
      options.enter(currentView())
      if (filtered) kernel.changed()
      options.opened()
    },
    close() {
      router.send({ type: 'CLOSE' })
    },
    request,
    getState: () => state(),
    async disconnect() {
      await ready.promise
      await kernel.disconnect()
    },
    async switchNetwork({ caipNetworkId }) {
      await ready.promise
      const network = networks.configured(caipNetworkId)
      if (!network) throw new Errors.UnrecognizedChainError()
      await kernel.switchTo(network)
    },
    walletsChanged(list) {
      connections.setWallets(list)
    },
    walletEvent: (event) => connections.hostEvent(event),
    async signOut() {
      if (!options.canSignOut) throw new Errors.InternalError(texts.signIn.notEnabled)
      await ready.promise
      await options.signOut()
    },
    async pay(payment) {
      // docs/behaviour.md §1: pay is off unless the host switched it on.
      if (!options.canPay) throw new Errors.UnsupportedMethodError(Schema.payTexts.off)
      await ready.promise
      return options.pay(payment)
    },
    ping: () => 'pong' as const,
  }

  return {
    api,
    ready: () => ready.resolve(),
    filter: () => filter,
    clearFilter() {
      filter = undefined
    },
    /** A connection of the namespace answers the dApps waiting for one; true when any was. */
    answer(namespace: Caip.Namespace, connection: Connection): boolean {
      const answered = waiters.filter((waiter) => waiter.namespace === namespace)
      waiters = waiters.filter((waiter) => waiter.namespace !== namespace)
      for (const waiter of answered) waiter.resolve(connection)
      return answered.length > 0
    },
    /** The modal closed: whoever waits for a connection is told the visitor declined. */
    closed() {
      filter = undefined
      const pending = waiters
      waiters = []
      for (const waiter of pending) waiter.reject(new Errors.UserRejectedRequestError())
    },
    /** Pushes the state to the host when it changed. */
    publish(host: Host) {
      const next = state()
      const key = JSON.stringify(next, (_, value) =>
        value instanceof Uint8Array ? Array.from(value) : value,
      )
      if (key === published) return
      published = key
      host.setState(next).catch(() => {
        // A host that went away rejects; the next change tries again.
        published = undefined
      })
    },
  }
}

/** What the host learns of the active wallet: what the visitor saw on Connect, never its page-side id. */
function walletInfo({ name, icon, rdns }: Connection['wallet']): NonNullable<State['wallet']> {
  return { name, ...(icon ? { icon } : {}), ...(rdns ? { rdns } : {}) }
}

function addresses(connection: Connection): string[] {
  return connection.accounts.map((account) => account.address)
}

function connectResult(connection: Connection) {
  return {
    accounts: connection.accounts.map(({ address, publicKey, chains }) => ({
      address,
      publicKey: publicKey ?? new Uint8Array(),
      chains: chains ?? [standardName(connection.chainId)],
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
