/**
 * A wallet your dApp lists itself, in Connect's `custom` group. It pairs over WalletConnect (so it needs
 * `walletConnectProjectId`) through its own links, as a registry wallet does. The modal shows its name and
 * icon as your page's claim ("Listed by this site"); the wallet that answers the pairing names itself.
 * @example
 * const wallet: CustomWallet = { id: 'acme', name: 'Acme Wallet', iconUrl: 'https://acme.example/icon.png', mobileLink: 'acme://' }
 */
export type CustomWallet = {
  /** Letters, digits, `-` and `_`; unique among your custom wallets. */
  id: string
  name: string
  /** An http(s) URL or a `data:image/…` URL of at most 8192 characters. */
  iconUrl: string
  /** The app's native scheme (`acme://`) or universal link (`https://…`), for phones. */
  mobileLink?: string
  /** The desktop app's scheme or link. */
  desktopLink?: string
  /** A web wallet, `https://` only. */
  webappLink?: string
  /** Its browser extension's EIP-6963 rdns: where the extension is on the page, the wallet is listed once. */
  rdns?: string
}
