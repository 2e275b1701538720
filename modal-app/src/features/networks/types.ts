import type { Caip } from '@airlock/bridge-protocol'

/** The actions of the network views. */
export type NetworksUi = {
  showNetworks(): void
  switchNetwork(id: Caip.ChainId): Promise<void>
}
