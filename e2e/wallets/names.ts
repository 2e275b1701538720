/** Wallet identities, dependency-free so Node-side tests can import them without the wallet code. */
export const EVM_WALLET_NAME = 'Airlock Test Wallet'
export const EVM_WALLET_RDNS = 'dev.airlock.testwallet'
export const SOLANA_WALLET_NAME = 'Airlock Test Solana'
// The devnet's own chain too, by its CAIP-2 id (it has no Wallet Standard name).
export const SOLANA_CHAINS = [
  'solana:devnet',
  'solana:localnet',
  'solana:5Rqo9UxdHy9JBtqyVvuwV4Sv7wuDnKNh',
] as const
export const BITCOIN_WALLET_NAME = 'Airlock Test Bitcoin'
