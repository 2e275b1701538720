/**
 * The WalletConnect connector: phone (or desktop) wallets reached over a WalletConnect session. One session
 * may serve several namespaces, so it ends with the last of them. The flow behind it (pairing, session,
 * sign-client) loads on first use.
 */
import { Caip } from '@airlock/bridge-protocol'
import type { Connector, ConnectorContext } from '../Connector.ts'
import * as Evm from '../evm.ts'
import * as Injected from '../injected/Injected.ts'
import type * as Client from './Client.ts'
import type { Flow } from './Flow.ts'
import * as WcWallet from './wallet.ts'

export type Loader = {
  /** The flow, loaded and started on first use; a failed load is tried again next time. */
  flow(): Promise<Flow>
  /** The flow once loaded. */
  current(): Flow | undefined
}

export function connector(
  context: ConnectorContext,
  loader: Loader,
  options: { pairingConnects: boolean },
): Connector & { approved(session: Client.Session): void; event(event: Client.Event): void } {
  const served = () =>
    Caip.namespaces.filter((namespace) => WcWallet.is(context.connectionOf(namespace)?.wallet ?? { id: '' }))

  return {
    id: WcWallet.id,
    type: 'WALLET_CONNECT',
    owns: (wallet) => WcWallet.is(wallet),
    announced: false,
    restore: (key, namespace) => WcWallet.of(namespace, key.name),
    async connect(wallet, { silent, fallback }) {
      const flow = await loader.flow()
      return silent ? flow.restore(wallet.namespace, fallback) : flow.connection(wallet.namespace, fallback)
    },
    async disconnect(_, others) {
      if (others.length > 0) return
      await (await loader.flow()).disconnect()
    },
    async request(connection, request) {
      return (await loader.flow()).request(connection, request)
    },
    // A wallet that approved wallet_sendCalls batches itself: on the chains its wallet_getCapabilities names,
    // or on every chain when it has no such method. Its status view is its own if it approved that too.
    batches: {
      async capabilities(connection, address, chainIds) {
        const flow = await loader.flow()
        const methods = flow.methods()
        if (!methods.includes('wallet_sendCalls')) return {}
        // EIP-5792's shapes load with the first batch, off the first chunk.
        const Calls = await import('@airlock/bridge-protocol/Calls')
        const hex = chainIds.map(Calls.hexChainIdOf)
        if (!methods.includes('wallet_getCapabilities')) return Object.fromEntries(hex.map((id) => [id, {}]))
        const answer = await flow.request(connection, {
          namespace: 'eip155',
          method: 'wallet_getCapabilities',
          params: [address, hex],
        })
        return Calls.parseCapabilities(answer)
      },
      get showsStatus() {
        return loader.current()?.methods().includes('wallet_showCallsStatus') ?? false
      },
    },
    async switchChain(connection, network) {
      if (network.namespace !== 'eip155') return
      const flow = await loader.flow()
      await Evm.switchChain(
        (method, params) => flow.request(connection, { namespace: 'eip155', method, params }),
        network,
      )
    },
    // Telegram and iOS Safari suspend a page that waits in the background, so there a pairing counts as
    // connecting.
    pending: () => options.pairingConnects && (loader.current()?.waiting() ?? false),
    /** The wallet approved a pairing: every configured namespace the session carries connects to it. */
    approved(session) {
      const configured = context.namespaces()
      for (const namespace of Caip.namespaces) {
        const carried = session.accounts.some((account) => account.startsWith(`${namespace}:`))
        if (configured.has(namespace) && carried) context.approved(WcWallet.of(namespace, session.peer.name))
      }
    },
    /** The wallet changed or ended the live session. */
    event(event) {
      if (!loader.current()?.follow(event)) return
      const namespaces = served()
      if (event.type === 'updated') {
        for (const namespace of namespaces) {
          const chainId = context.connectionOf(namespace)?.chainId
          context.update(namespace, WcWallet.id, () =>
            loader
              .flow()
              .then((flow) => flow.connection(namespace, chainId))
              .then(
                (next) => ({ type: 'accountsChanged', accounts: next.accounts }) as const,
                () => ({ type: 'disconnect' }) as const,
              ),
          )
        }
        return
      }
      if (event.type === 'deleted') {
        for (const namespace of namespaces)
          context.update(namespace, WcWallet.id, async () => ({ type: 'disconnect' }))
        return
      }
      if (event.type === 'chainChanged') {
        const chainId = event.chainId
        const namespace = Caip.parseChainId(chainId).namespace
        if (namespaces.includes(namespace))
          context.update(namespace, WcWallet.id, async () => ({ type: 'chainChanged', chainId }))
        return
      }
      const { namespace, accounts } = event
      if (!namespaces.includes(namespace)) return
      context.update(namespace, WcWallet.id, async () => {
        const addresses = await Injected.changedAccounts(namespace, accounts)
        return addresses && { type: 'accountsChanged', accounts: addresses.map((address) => ({ address })) }
      })
    },
  }
}
