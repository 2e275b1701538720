import type { Listing } from '../../api/Api.ts'
import type { WalletRegistry } from './WalletRegistry.ts'

/** What the wallet registry adds to the snapshot: Connect's suggestions, and the list behind AllWallets. */
export type RegistrySlice = {
  /** Registry wallets for Connect: 4 featured, 4 recommended. */
  featured: Listing[]
  recommended: Listing[]
  /** How many wallets the registry lists in all; 0 until known. */
  walletCount: number
  /** Loaded with the feature after the handshake; undefined until then. */
  registry: WalletRegistry | undefined
}

export type RegistryUi = {
  showAllWallets(): void
  /** The URL of a registry wallet's image. */
  imageUrl(listing: Listing): string
}
