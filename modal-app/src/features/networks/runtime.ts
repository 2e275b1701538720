/**
 * The network views' state and actions: every configured network by namespace, the chain an unsupported
 * wallet is on, and switching, whose progress and failure show in the snackbar.
 */
import { Errors } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import { group } from './groups.ts'
import type { NetworksSlice, NetworksUi } from './types.ts'

export function setup(kernel: Kernel, switchable = true): Runtime {
  const { router, snackbar } = kernel
  const ui: NetworksUi = {
    showNetworks() {
      router.send({ type: 'PUSH', view: 'Networks' })
    },
    async switchNetwork(id) {
      const network = kernel.configured(id)
      if (!network) return
      snackbar.show('loading', texts.networks.switching(network.name))
      try {
        await kernel.switchTo(network)
        snackbar.show('success', texts.networks.switched(network.name))
        if (router.view() !== 'UnsupportedChain') router.send({ type: 'BACK' })
      } catch (error) {
        snackbar.show('error', Errors.messageOf(error, texts.networks.failed))
        kernel.shake()
      }
    },
  }

  /** The EVM wallet's chain, when no configured network is that chain. */
  function unsupportedNetwork(): string | undefined {
    const chainId = kernel.connectionOf('eip155')?.chainId
    if (!chainId || kernel.configured(chainId)) return undefined
    return kernel.known(chainId)?.name ?? chainId
  }

  return {
    ui: switchable ? ui : {},
    snapshot: (): NetworksSlice => ({
      networkGroups: group(kernel.networks(), (namespace) => kernel.currentIn(namespace)),
      unsupportedNetwork: unsupportedNetwork(),
    }),
  }
}
