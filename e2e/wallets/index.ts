/** Node-side API for tests: build the init script, drive the simulated user, read the call log. */
import type { Page } from '@playwright/test'
import { BUNDLE_GLOBAL_NAME, buildWalletBundle } from './build.ts'
import type { WalletMode, WalletOptions } from './options.ts'
import { validateWalletOptions } from './options.ts'
import type { WalletCall } from './runtime.ts'

export type { BitcoinTestWallet, BitcoinWalletControl } from './bitcoin-wallet.ts'
export type { Eip1193Provider, EvmWalletControl } from './evm-wallet.ts'
export type { AirlockTestWallets } from './globals.ts'
export {
  BITCOIN_WALLET_NAME,
  EVM_WALLET_NAME,
  EVM_WALLET_RDNS,
  SOLANA_CHAINS,
  SOLANA_WALLET_NAME,
} from './names.ts'
export type {
  BitcoinNetworkName,
  BitcoinWalletOptions,
  EvmChainOption,
  EvmWalletOptions,
  SolanaWalletOptions,
  WalletMode,
  WalletOptions,
} from './options.ts'
export { ANVIL_ACCOUNT_0_PRIVATE_KEY, defaultWalletOptions } from './options.ts'
export type { WalletCall, WalletKind } from './runtime.ts'
export type { SolanaTestWallet, SolanaWalletControl } from './solana-wallet.ts'

let bundlePromise: Promise<string> | undefined

/** The bundle is the same for every option set, so it is built once per Node process. */
function walletBundle(): Promise<string> {
  bundlePromise ??= buildWalletBundle().catch((error: unknown) => {
    bundlePromise = undefined // a failed build (e.g. mid-edit syntax error) should not poison later calls
    throw error
  })
  return bundlePromise
}

/** Script for `page.addInitScript({ content })` / `context.addInitScript({ content })`. */
export async function walletInitScript(options: WalletOptions): Promise<string> {
  validateWalletOptions(options)
  const bundle = await walletBundle()
  // Wrapping in a function keeps the bundle's `var` from becoming a global of the dApp page.
  return `(() => {\n${bundle}\n${BUNDLE_GLOBAL_NAME}.install(${JSON.stringify(options)});\n})();\n`
}

/** Makes every later wallet prompt in the page approve or reject. */
export async function setWalletMode(page: Page, mode: WalletMode): Promise<void> {
  await page.evaluate((next) => {
    const wallets = window.__airlockTestWallets
    if (!wallets) throw new Error('Airlock test wallets are not installed in this page')
    wallets.setMode(next)
  }, mode)
}

/** The wallets' call log so far ({ wallet, method } in call order). */
export async function walletCalls(page: Page): Promise<WalletCall[]> {
  return page.evaluate(() => [...(window.__airlockTestWallets?.calls ?? [])])
}
