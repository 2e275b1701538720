/**
 * A network your dApp declares itself: a chain the modal does not bundle (a private or new chain), or your
 * own name, RPC, icon or explorer for one it does (same `id`). The modal checks every field strictly and shows
 * an "Invalid Configuration" alert naming the first bad one.
 * @example
 * const devnet: CustomNetwork = {
 *   id: 'eip155:31338',
 *   name: 'Team Devnet',
 *   rpcUrl: 'http://127.0.0.1:8546',
 *   nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
 *   testnet: true,
 * }
 */
export type CustomNetwork = {
  /** CAIP-2 id: `eip155:<decimal chain id>`, `solana:<genesis hash prefix>`, `bip122:<genesis hash prefix>`. */
  id: string
  /** Shown in the Networks view and given to wallets that add the chain; 1 to 100 characters. */
  name: string
  /** http(s) JSON-RPC (a REST endpoint for Bitcoin); offered to EVM wallets by `wallet_addEthereumChain`. */
  rpcUrl: string
  /** Block explorer, http(s); the account's address page is `${url}/address/${address}`. */
  explorer?: { name: string; url: string }
  /** The native currency; `decimals` a whole number in 0..36, `symbol` 1 to 20 characters. */
  nativeCurrency: { name: string; symbol: string; decimals: number }
  /** An http(s) URL or a `data:image/…` URL of at most 8192 characters. @default the name's initial */
  iconUrl?: string
  /** Marked "Testnet" in the Networks view. @default false */
  testnet?: boolean
}
