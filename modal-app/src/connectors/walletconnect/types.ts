import type { Listing } from '../../api/Api.ts'
import type { Config } from '../../core/Config.ts'
import type { PairingInfo } from './Flow.ts'
import type { Keeping } from './Kept.ts'
import type { Target } from './Pairing.ts'

/** The actions of WalletConnect's views. */
export type PairingUi = {
  /** Pairs over WalletConnect: the plain QR code, or for a registry wallet with its deep links. */
  connectWalletConnect(listing?: Listing): void
  /** Pairs over WalletConnect with a wallet the host listed itself (its `customWallets`), by its links. */
  connectCustom(target: Target): void
  /** Opens the picked wallet's app with the pairing URI. */
  openWallet(kind: 'mobile' | 'desktop' | 'webapp'): void
  /** The view copied the pairing link (or failed to). */
  copiedLink(ok: boolean): void
  /** In the click: a window of the modal origin keeps the session the frame cannot. */
  keepSession(): void
  /** In the click: that window hands a kept session back. */
  restoreSession(): void
}

/** What WalletConnect adds to the snapshot. */
export type PairingSlice = {
  walletConnect: true
  pairing: PairingInfo
  sessionKeeping: Keeping
  /** A phone (docs/behaviour.md §2): a QR code is useless on the device itself, so wallets' apps come first. */
  deepLinksFirst: boolean
  /** The host's own wallets (`customWallets`), less those it excluded, for Connect's `custom` group. */
  customWallets: NonNullable<Config['customWallets']>
}

/** The pairing view: the QR code, the link to copy, a picked wallet's deep links. */
export const pairingView = 'ConnectingWalletConnectBasic'
