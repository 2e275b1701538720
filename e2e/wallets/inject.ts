/**
 * Browser entry point, bundled by build.ts into an IIFE and run by Playwright before any page script,
 * the same moment a wallet extension's content script injects its provider.
 */
import { installBitcoinWallet } from './bitcoin-wallet.ts'
import { installEvmWallet } from './evm-wallet.ts'
import type { AirlockTestWallets } from './globals.ts'
import type { WalletMode, WalletOptions } from './options.ts'
import { createRuntime, type WalletRuntime } from './runtime.ts'
import { installSolanaWallet } from './solana-wallet.ts'

function tryInstall<T>(name: string, install: () => T): T | undefined {
  try {
    return install()
  } catch (error) {
    // One broken wallet must not hide the others from the dApp.
    console.error(`[airlock test wallet] could not install the ${name} wallet`, error)
    return undefined
  }
}

function createGlobal(runtime: WalletRuntime, options: WalletOptions): AirlockTestWallets {
  const { evm, solana, bitcoin } = options
  return Object.freeze({
    setMode(mode: WalletMode) {
      // Callers from untyped page code could pass anything; an unknown mode must not act as 'approve'.
      if (mode !== 'approve' && mode !== 'reject') throw new Error(`Unknown wallet mode ${String(mode)}`)
      runtime.mode = mode
    },
    get mode() {
      return runtime.mode
    },
    calls: runtime.calls,
    evm: evm && tryInstall('EVM', () => installEvmWallet(evm, runtime)),
    solana: solana && tryInstall('Solana', () => installSolanaWallet(solana, runtime)),
    bitcoin: bitcoin && tryInstall('Bitcoin', () => installBitcoinWallet(bitcoin, runtime)),
  })
}

export function install(options: WalletOptions): void {
  // Init scripts run once per document, but guard anyway: double registration would duplicate wallets.
  if (window.__airlockTestWallets) return
  window.__airlockTestWallets = createGlobal(createRuntime(options.mode ?? 'approve'), options)
}
