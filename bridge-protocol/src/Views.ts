/**
 * The views a host may ask for with `open({ view })`, and that the modal reports in `state.view`. This list
 * is a promise to every `airlock.js` already cached on a dApp page: names are only ever added (with a minor
 * version bump, see `Schema.protocolVersions`), never renamed or removed. The modal's other screens
 * (`ConnectingExternal`, `ApproveTransaction`, …) are its own business and never cross the bridge, so the
 * modal may add, split or rename them freely.
 */

/**
 * Every public view, in the order a reader meets them.
 * - `Connect`: the wallets to connect with.
 * - `Account`: the connected account (only while one is connected).
 * - `Networks`: the networks the dApp configured, to switch between.
 * - `AllWallets`: the full wallet registry, searchable (only with WalletConnect on).
 * - `ConnectingWalletConnectBasic`: the WalletConnect QR code (only with WalletConnect on).
 * - `UnsupportedChain`: the connected wallet is on a network the dApp did not configure.
 * - `SIWXSignMessage`: sign in with any namespace (CAIP-122), when `siwx` is configured.
 * - `ConnectingSiwe`: sign in with Ethereum (EIP-4361), when `siweConfig` is configured.
 */
export const publicViews = [
  'Connect',
  'Account',
  'Networks',
  'AllWallets',
  'ConnectingWalletConnectBasic',
  'UnsupportedChain',
  'SIWXSignMessage',
  'ConnectingSiwe',
] as const

/** A view a host may open and the modal may report. */
export type PublicView = (typeof publicViews)[number]

/**
 * True for a name of {@link publicViews}. The bridge carries any short name, so a peer newer than this
 * build may send one it does not know; this is where such a name is told apart.
 * @example
 * if (!Views.isPublicView(view)) throw Errors.unknownView(view)
 */
export function isPublicView(name: unknown): name is PublicView {
  return publicViews.includes(name as PublicView)
}
