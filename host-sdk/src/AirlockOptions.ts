/** What a dApp passes to `createAirlock`: its project, networks and wallets, and how the modal looks and behaves. */
import type { Errors } from '@airlock/bridge-protocol'
import type { Features } from '@airlock/bridge-protocol/Features'
import type { Timeouts } from '@airlock/bridge-protocol/Messenger'
import type { CustomNetwork } from './CustomNetwork.ts'
import type { CustomWallet } from './CustomWallet.ts'
import type { ExternalWallet } from './ExternalWallet.ts'
import type { PreferredAccountTypes } from './PreferredAccountTypes.ts'
import type { SignInOptions } from './SignInOptions.ts'

/** Options of `createAirlock`. */
export type AirlockOptions = {
  /** Your project's id; the modal checks your page's origin against the project's allow-list. */
  projectId: string
  /** Origin (and path) the modal is served from. @default the origin of the `<script>` that loaded Airlock */
  modalUrl?: string
  /** CAIP-2 ids of the networks your dApp supports, the first one preferred. */
  networks: string[]
  /** RPC URL per CAIP-2 id, overriding the modal's defaults and a custom network's `rpcUrl`. */
  rpcUrls?: Record<string, string>
  /**
   * Networks you declare yourself: chains the modal does not know, or your metadata for ones it does (same
   * id). Declaring is not listing: a network shows only if `networks` lists its id, which also sets its place.
   * @example customNetworks: [{ id: 'eip155:31338', name: 'Team Devnet', rpcUrl: 'http://127.0.0.1:8546', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }]
   */
  customNetworks?: CustomNetwork[]
  /** @default the visitor's preference */
  themeMode?: 'light' | 'dark'
  /**
   * The modal's language, a BCP 47 tag (`'ar'`, `'pt-BR'`); one it does not speak falls back to the visitor's
   * browser languages, then English. Arabic and Hebrew lay the modal out right to left.
   * @default the visitor's browser languages
   */
  locale?: string
  /** CSS variables for the modal, keys starting with `--airlock-`. */
  themeVariables?: Record<string, string>
  /**
   * Feature switches by name (`{ allWallets: false }`; a feature left out keeps its default) and orders
   * (`{ connectorTypeOrder: ['walletConnect', 'recent', 'injected', 'featured', 'recommended'] }`). A name
   * or value the modal does not know is an Invalid Configuration naming it.
   */
  features?: Features
  /** Render inline in this element (or the element this selector finds) instead of as a modal. */
  embedded?: HTMLElement | string
  /**
   * `false`: Airlock builds the modal's element (`airlock.element`) but leaves placing it to you, so it can
   * live in your app's root, a shadow root or a portal and inherit its `dir`, fonts and CSS variables. It
   * still shows in the top layer. Until it is in the page, calls that need the modal reject with 4900. Not
   * with `embedded`, which places itself. @default true: appended to the page's body
   */
  append?: boolean
  /** The embedded wallet's account type per namespace; the visitor's choice in Settings wins. */
  preferredAccountTypes?: PreferredAccountTypes
  /**
   * A wallet on a network `networks` does not list stays connected there, with a notice, instead of being
   * sent to UnsupportedChain. @default false
   */
  allowUnsupportedChain?: boolean
  /** The visitor may switch networks in the modal; `false` leaves the wallet where it is. @default true */
  enableNetworkSwitch?: boolean
  /** Time-outs in ms. @default { load: 20_000, request: 30_000 } */
  timeouts?: Partial<Timeouts>
  /** Called when the modal frame fails to load or a call times out. */
  onTimeout?: (reason: Errors.TimeoutReason) => void
  /** Announce the EIP-1193 provider through EIP-6963. @default true */
  announce?: boolean
  /** Your WalletConnect project id; without it, WalletConnect (QR code, phone wallets) is off. */
  walletConnectProjectId?: string
  /** The WalletConnect relay. @default 'wss://relay.walletconnect.org' */
  relayUrl?: string
  /** Registry ids of wallets to show first on Connect. */
  featuredWalletIds?: string[]
  /** Wallets never to show, by registry id, rdns (`io.metamask`) or name: on the page, in the registry, recent. */
  excludeWalletIds?: string[]
  /** Wallets of your own in Connect's `custom` group, paired over WalletConnect through their links. */
  customWallets?: CustomWallet[]
  /** EIP-1193 providers your dApp holds, listed in Connect's `external` group and connected like page wallets. */
  externalWallets?: ExternalWallet[]
  /**
   * IANA time zones (`'Asia/Shanghai'`) where Buy and Swap say they are unavailable instead of showing their
   * forms; `[]` for none. @default mainland China's, Hong Kong's and Macau's
   */
  restrictedTimeZones?: string[]
  /** Your terms of service, linked at Connect's foot (and ticked first with `features.legalCheckbox`). */
  termsConditionsUrl?: string
  /** Your privacy policy, linked beside the terms. */
  privacyPolicyUrl?: string
  /** Sign in with Ethereum (EIP-4361) after connecting an EVM wallet. The older of the two sign-in options. */
  siweConfig?: SignInOptions
  /** Sign in with any connected account: EIP-4361 for EVM, CAIP-122 for Solana and Bitcoin. */
  siwx?: SignInOptions
}
