/**
 * How the kernel reacts to a connection's transitions: a new connection answers waiting dApps and routes
 * the visitor (unless a feature took them somewhere, like a sign-in), a lost one updates the router, a
 * changed chain may lead to UnsupportedChain, and closing the modal ends what nobody looks at any more.
 */
import type { Caip } from '@airlock/bridge-protocol'
import type { Actor } from 'xstate'
import { texts } from '../shared/texts.ts'
import type { Config } from './Config.ts'
import * as Connection from './Connection.ts'
import type { Connections } from './Connections.ts'
import type { Runtime } from './Feature.ts'
import type * as HostApi from './HostApi.ts'
import type { Networks } from './Networks.ts'
import * as Router from './Router.ts'
import type { Shaker, Snackbar } from './Snackbar.ts'

/** The EVM account is on a network that is not configured. */
export function onUnsupportedChain(connections: Connections, networks: Networks): boolean {
  const connection = connections.connectionOf('eip155')
  return connection !== undefined && !networks.configured(connection.chainId)
}

/**
 * Whether a wallet on a network that is not configured is left there, connected, with a notice on Account,
 * rather than sent to UnsupportedChain: where the host allows unsupported chains, or switched network
 * switching off (the modal then cannot offer the way out UnsupportedChain is for).
 */
function staysOnChain(config: Pick<Config, 'allowUnsupportedChain' | 'enableNetworkSwitch'>): boolean {
  return config.allowUnsupportedChain === true || config.enableNetworkSwitch === false
}

export type Options = {
  config: Pick<Config, 'allowUnsupportedChain' | 'enableNetworkSwitch'>
  networks: Networks
  connections: Connections
  router: Actor<typeof Router.machine>
  hostApi: ReturnType<typeof HostApi.create>
  snackbar: Snackbar
  shake: Shaker
  /** The features' hooks of one kind, in the features' order. */
  hooks<K extends keyof Runtime>(key: K): NonNullable<Runtime[K]>[]
}

export function create(options: Options) {
  const { networks, connections, router, hostApi, snackbar, shake, hooks: each } = options
  const currentView = () => Router.currentView(router.getSnapshot().context)
  const stays = staysOnChain(options.config)
  const onUnsupported = () => !stays && onUnsupportedChain(connections, networks)
  const connectedEvent = () =>
    ({ type: 'CONNECTED', connected: connections.anyConnected(), unsupported: onUnsupported() }) as const

  function onTransition(
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
      shake.start()
    }
    // A new connection, also one that replaced another; not the old one coming back after a cancelled prompt.
    if (is && is !== was && before.value !== 'connected') {
      // The wallet that was replaced is told, so it does not stay authorised for this site on its side.
      if (was && was.wallet.id !== is.wallet.id)
        void connections.disconnectWallet(namespace, was).catch(() => {})
      return onConnected(namespace, is, before.value === 'prompting')
    }
    if (was && !is) {
      for (const disconnected of each('disconnected')) disconnected(namespace)
      router.send(connectedEvent())
      return
    }
    if (was && is && was.chainId !== is.chainId) onChainChanged(namespace, is)
    if (was && is && was.accounts[0]?.address !== is.accounts[0]?.address)
      for (const changed of each('changed')) changed(namespace, is, 'account')
  }

  function onConnected(namespace: Caip.Namespace, connection: Connection.Connection, byUser: boolean) {
    // A connection the user just made becomes the active one; a reconnect keeps the stored choice. A wallet
    // that connects several namespaces at once (a login, a WalletConnect session, either reconnecting) leaves
    // the dApp on the namespace it was on, whichever of them connects last.
    const chosen = networks.chosenNamespace()
    const alongside =
      chosen !== undefined && chosen !== namespace && connections.servedBy(chosen, connection.wallet)
    const active = networks.namespaceOf(networks.activeId())
    if (!alongside && (byUser || !active || active === namespace))
      networks.setActive(networks.configured(connection.chainId)?.id)
    const answered = hostApi.answer(namespace, connection)
    // Also on reconnect, so the next open lands on UnsupportedChain.
    router.send(connectedEvent())
    const unsupported = !stays && namespace === 'eip155' && !networks.configured(connection.chainId)
    const routed = each('connected').reduce(
      (taken, connected) => connected(namespace, connection, byUser && !unsupported) === true || taken,
      false,
    )
    if (byUser) {
      hostApi.clearFilter()
      if (unsupported) return router.send({ type: 'OPEN', view: 'UnsupportedChain' })
      if (routed) return
      // A dApp that asked for accounts has them: the modal gets out of the way. A visitor who opened the
      // modal to connect sees the account they connected.
      if (answered) return router.send({ type: 'CLOSE' })
      return router.send({ type: 'OPEN', view: 'Account' })
    }
    // Reconnected while the modal shows Connect (opened before the reconnect settled): show the account.
    const snap = router.getSnapshot()
    if (
      Router.isOpen(snap) &&
      !hostApi.filter() &&
      snap.context.history.length === 1 &&
      currentView() === 'Connect'
    )
      router.send({ type: 'OPEN', view: onUnsupported() ? 'UnsupportedChain' : 'Account' })
  }

  function onChainChanged(namespace: Caip.Namespace, connection: Connection.Connection) {
    const network = networks.configured(connection.chainId)
    // A feature that took the visitor somewhere (a sign-in for the new chain) ends the reaction here.
    if (network && each('changed').some((changed) => changed(namespace, connection, 'chain') === true)) return
    if (network && networks.isActiveIn(namespace)) networks.setActive(network.id)
    if (namespace !== 'eip155') return
    router.send(connectedEvent())
    if (!network) return stays ? undefined : router.send({ type: 'OPEN', view: 'UnsupportedChain' })
    if (currentView() === 'UnsupportedChain') router.send({ type: 'BACK' })
  }

  /** The API named networks: a namespace may have gone, a wallet's chain may be supported after all. */
  function onNamed() {
    router.send({ type: 'ADAPTERS', adapters: networks.namespaces().size > 0 })
    router.send(connectedEvent())
    if (!onUnsupported() && currentView() === 'UnsupportedChain')
      router.send({ type: 'REPLACE', view: connections.anyConnected() ? 'Account' : 'Connect' })
  }

  function onClosed() {
    hostApi.closed()
    connections.sendAll({ type: 'CANCEL' })
    for (const closed of each('closed')) closed()
  }

  return {
    transition: onTransition,
    named: onNamed,
    closed: onClosed,
  }
}
