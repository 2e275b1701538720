/** Wallet identities, dependency-free so Node-side tests can import them without the wallet code. */
export const EVM_WALLET_NAME = 'Airlock Test Wallet'
export const EVM_WALLET_RDNS = 'dev.airlock.testwallet'
export const SOLANA_WALLET_NAME = 'Airlock Test Solana'
export const SOLANA_CHAINS = ['solana:devnet', 'solana:localnet'] as const
export const BITCOIN_WALLET_NAME = 'Airlock Test Bitcoin'
