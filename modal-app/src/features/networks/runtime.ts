/** The network views' actions: switching shows its progress and failure in the snackbar. */
import { Errors } from '@airlock/bridge-protocol'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import type { NetworksUi } from './types.ts'

export function setup(kernel: Kernel): Runtime {
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
  return { ui }
}
