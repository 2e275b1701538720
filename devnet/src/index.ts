/**
 * `@airlock/devnet`: local chains for `npm start` and tests. Browser code should import
 * `@airlock/devnet/chains` instead, which holds only plain data.
 */
export * as Accounts from './Accounts.ts'
export * as Anvil from './Anvil.ts'
export * as Litecoind from './bitcoin/Litecoind.ts'
export * as Regtest from './bitcoin/Regtest.ts'
export * from './Chains.ts'
export * as Devnet from './Devnet.ts'
export * as Pools from './dex/Pools.ts'
export * as UniswapV2 from './dex/UniswapV2.ts'
export * as UniswapV3 from './dex/UniswapV3.ts'
export * as Farcaster from './farcaster/Farcaster.ts'
export * as Mail from './Mail.ts'
export * as Oidc from './Oidc.ts'
export * as Relay from './Relay.ts'
export * as Solana from './solana/Solana.ts'
export { testTokenAbi, testTokenBytecode } from './TestToken.ts'
export * as TestWallets from './TestWallets.ts'
