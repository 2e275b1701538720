/** The page-side control surface tests reach through `window.__airlockTestWallets`. */
import type { BitcoinWalletControl } from './bitcoin-wallet.ts'
import type { EvmWalletControl } from './evm-wallet.ts'
import type { WalletMode } from './options.ts'
import type { WalletCall } from './runtime.ts'
import type { SolanaWalletControl } from './solana-wallet.ts'

export interface AirlockTestWallets {
  /** Decides what the simulated user answers to every later prompt, in all three wallets. */
  setMode(mode: WalletMode): void
  readonly mode: WalletMode
  /** Every request/feature call, in order (including rejected ones). */
  readonly calls: WalletCall[]
  readonly evm?: EvmWalletControl
  readonly solana?: SolanaWalletControl
  readonly bitcoin?: BitcoinWalletControl
}

declare global {
  interface Window {
    __airlockTestWallets?: AirlockTestWallets
  }
}
