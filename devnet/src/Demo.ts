/**
 * What the dev stack's API starts with: the demo project and its sponsorship, the non-EVM devnet chains as
 * the API names them, the prices the demo shows, and the wallet key kept beside the data.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { Cache, type Database, Prices, Projects, Registry } from '@airlock/api'
import * as Regtest from './bitcoin/Regtest.ts'
import { devnetTokens } from './Chains.ts'
import type * as Devnet from './Devnet.ts'
import * as Pools from './dex/Pools.ts'
import * as Solana from './solana/Solana.ts'

/** The origins of the demo project: the demo dApp, and any localhost port for development. */
const demoOrigins = ['http://localhost:5173', 'http://localhost:*']

/**
 * What the paymaster pays for the demo's (and the e2e suite's) operations, in wei of the devnet's ETH: its
 * deposit is 100 ETH a run, and the API's data folder keeps the total across runs. The tip cap is wider than
 * the API's 2 gwei: anvil suggests the last block's lowest tip, so after a wallet's 1.5 gwei transaction a
 * viem client offers 3 gwei (twice the suggestion).
 */
export const demoSponsorship = {
  budget: {
    perDay: String(10n ** 18n),
    total: String(50n * 10n ** 18n),
    perSenderPerDay: String(10n ** 17n),
  },
  fees: { maxPriorityFeePerGasGwei: 10 },
}

/** Devnet prices the demo shows (USD); the EVM chains' pools are seeded at theirs. */
export const demoPrices = { ...Pools.prices, rLTC: 90, SOL: 150, USDC: 1 } as const

/** The Solana devnet chain as the API and the demo name it; its genesis is fixed, so is its id. */
export const solanaChain = {
  id: Solana.caipNetworkId,
  name: 'Airlock Solana Devnet',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  testnet: true,
} as const
/** The devnet's USDC on Solana, as the API's token list names it. */
export const usdc = {
  address: Solana.usdcMint,
  name: 'USD Coin (devnet)',
  symbol: 'USDC',
  decimals: Solana.usdcDecimals,
}

/** The Bitcoin-family devnet chain as the API and the demo name it. */
export const bitcoinChain = {
  id: Regtest.caipNetworkId,
  name: 'Airlock Bitcoin Devnet',
  nativeCurrency: { name: 'Regtest Litecoin', symbol: 'rLTC', decimals: 8 },
  testnet: true,
} as const

/** The demo project, the wallet registry and every devnet chain's prices; safe to run on every start. */
export async function seed(db: Database.Database, devnet: Devnet.Instance, apiUrl: string) {
  await Cache.clear(db)
  await Projects.add(db, 'demo', demoOrigins)
  await Projects.setAnalytics(db, 'demo', true)
  await Registry.seed(db)
  const tokens = Object.values(devnetTokens)
  for (const token of tokens)
    await Registry.putMonogram(db, 'token', token.symbol.toLowerCase(), token.symbol.toUpperCase())
  await Prices.set(
    db,
    devnet.chains.flatMap((running) => [
      {
        chainId: running.caipNetworkId,
        address: Prices.native,
        currency: 'usd' as const,
        price: demoPrices.ETH,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: null,
      },
      ...tokens.map((token) => ({
        chainId: running.caipNetworkId,
        address: token.address,
        currency: 'usd' as const,
        price: demoPrices[token.symbol],
        name: token.name,
        symbol: token.symbol,
        iconUrl: `${apiUrl}/public/getTokenImage/${token.symbol.toLowerCase()}?projectId=demo`,
      })),
    ]),
  )
  await Prices.set(db, [
    ...[
      { address: Prices.native, price: demoPrices.SOL, ...solanaChain.nativeCurrency },
      { address: usdc.address.toLowerCase(), price: demoPrices.USDC, name: usdc.name, symbol: usdc.symbol },
    ].map(({ address, price, name, symbol }) => ({
      chainId: solanaChain.id,
      address,
      currency: 'usd' as const,
      price,
      name,
      symbol,
      iconUrl: null,
    })),
    {
      chainId: bitcoinChain.id,
      address: Prices.native,
      currency: 'usd',
      price: demoPrices.rLTC,
      name: bitcoinChain.nativeCurrency.name,
      symbol: bitcoinChain.nativeCurrency.symbol,
      iconUrl: null,
    },
  ])
}

/**
 * The API's wallet key: kept in `<dataDir>/wallet.key` (made once, mode 0600), so the auth shares stored by
 * an earlier `npm start` still open; random with `memory://`, where no wallet outlives the run. A dev
 * convenience only: a deployment keeps its key apart from its database.
 */
export function walletKey(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return randomBytes(32).toString('hex')
  const path = `${dataDir}/wallet.key`
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600 })
  }
  return readFileSync(path, 'utf8').trim()
}
