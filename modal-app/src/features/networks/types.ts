import type { Caip } from '@airlock/bridge-protocol'
import type { Network } from '../../shared/Network.ts'

/** The actions of the network views. */
export type NetworksUi = {
  showNetworks(): void
  switchNetwork(id: Caip.ChainId): Promise<void>
}

/** A namespace's configured networks, in the host's order, and the one it is on. */
export type NetworkGroup = {
  namespace: Caip.Namespace
  networks: Network[]
  current?: Caip.ChainId | undefined
}

/** What this feature adds to the snapshot. */
export type NetworksSlice = {
  /** Every configured network by namespace, in the product's namespace order (docs/behaviour.md §1). */
  networkGroups: NetworkGroup[]
  /** The chain the EVM wallet is on while the app does not support it: its name if known, else its id. */
  unsupportedNetwork?: string | undefined
}
