/**
 * The injected connector: wallets that live on the host page, announced through EIP-6963 or registered as
 * Wallet Standard wallets, driven through the bridge with `host.walletRequest`.
 */
import { Caip } from '@airlock/bridge-protocol'
import { sameWallet } from '../../core/Storage.ts'
import { toCaip } from '../../shared/Network.ts'
import type { Connector, ConnectorContext } from '../Connector.ts'
import * as Evm from '../evm.ts'
import * as Injected from './Injected.ts'

/**
 * The fallback connector: it owns every wallet no other connector claims, so it is listed last.
 * @example
 * const connectors = [walletConnect(context), injected(context)]
 */
export function injected(context: ConnectorContext): Connector {
  return {
    id: 'injected',
    type: 'INJECTED',
    owns: () => true,
    announced: true,
    restore: (key) => context.wallets().find((wallet) => sameWallet(key, wallet)),
    async connect(wallet, { silent, fallback }) {
      return Injected.connect(await context.host(), wallet, {
        silent,
        networks: context.networks(),
        fallback,
      })
    },
    async disconnect(connection) {
      await Injected.disconnect(await context.host(), connection)
    },
    async request(connection, request) {
      return (await context.host()).walletRequest({ walletId: connection.wallet.id, request })
    },
    // A page wallet that speaks EIP-5792 answers wallet_getCapabilities for the chains it batches on; one
    // that refuses (most EOAs: 4200) is sent a batch call by call instead. Its own UI shows its batches.
    batches: {
      async capabilities(connection, address, chainIds) {
        // EIP-5792's shapes load with the first batch, off the first chunk.
        const Calls = await import('@airlock/bridge-protocol/Calls')
        const host = await context.host()
        const answer = await host.walletRequest({
          walletId: connection.wallet.id,
          request: {
            namespace: 'eip155',
            method: 'wallet_getCapabilities',
            params: [address, chainIds.map(Calls.hexChainIdOf)],
          },
        })
        return Calls.parseCapabilities(answer)
      },
      showsStatus: true,
    },
    async switchChain(connection, network) {
      if (network.namespace !== 'eip155') return
      const host = await context.host()
      await Evm.switchChain(
        (method, params) =>
          host.walletRequest({
            walletId: connection.wallet.id,
            request: { namespace: 'eip155', method, params },
          }),
        network,
      )
    },
    hostEvent(event) {
      const namespace = Caip.namespaces.find((ns) => context.connectionOf(ns)?.wallet.id === event.walletId)
      if (!namespace) return
      context.update(namespace, event.walletId, async () => {
        switch (event.type) {
          case 'accountsChanged': {
            // A page wallet's event is untrusted input: one malformed address and the whole event is ignored.
            const addresses = await Injected.changedAccounts(namespace, event.accounts)
            return (
              addresses && { type: 'accountsChanged', accounts: addresses.map((address) => ({ address })) }
            )
          }
          case 'chainChanged': {
            const chainId = toCaip(event.chainId)
            return chainId?.startsWith(`${namespace}:`) ? { type: 'chainChanged', chainId } : undefined
          }
          case 'disconnect':
            return { type: 'disconnect' }
        }
      })
    },
  }
}
