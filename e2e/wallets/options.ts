/**
 * Options shared by the Node side (which serialises them into the init script) and the page side
 * (which builds the wallets from them). Everything here must stay JSON-serialisable.
 */

export type WalletMode = 'approve' | 'reject'

export interface EvmChainOption {
  chainId: number
  rpcUrl: string
  name: string
}

export interface EvmWalletOptions {
  /** 0x-prefixed 32-byte hex private key. */
  privateKey: `0x${string}`
  chains: EvmChainOption[]
  initialChainId: number
  /** Chains the wallet knows before any wallet_addEthereumChain; defaults to every entry of `chains`. */
  knownChainIds?: number[]
}

export interface SolanaWalletOptions {
  /** 32-byte ed25519 seed as hex (no 0x prefix needed). */
  secretKeySeedHex: string
}

/** `devnet`: the devnet's Bitcoin-family chain (Litecoin Core's regtest, `rltc1…`). */
export type BitcoinNetworkName = 'regtest' | 'testnet' | 'devnet'

export interface BitcoinWalletOptions {
  /** 32-byte secp256k1 private key as hex (no 0x prefix needed). */
  privateKeyHex: string
  network: BitcoinNetworkName
}

export interface WalletOptions {
  evm?: EvmWalletOptions
  solana?: SolanaWalletOptions
  bitcoin?: BitcoinWalletOptions
  /** What the simulated user answers to every prompt. Defaults to 'approve'. */
  mode?: WalletMode
}

/** Anvil's account #0 for the default mnemonic: pre-funded, so eth_sendTransaction works out of the box. */
export const ANVIL_ACCOUNT_0_PRIVATE_KEY =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** Fixed test-only keys, so addresses are stable across runs and can be asserted in tests. */
const TEST_SOLANA_SEED_HEX = '8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63'
const TEST_BITCOIN_PRIVATE_KEY_HEX = 'c28a9f80738f770d527803a566cf6fc3edf6cea586c4fc4a5223a5ad797e1ac3'

export function defaultWalletOptions(chains: EvmChainOption[]): WalletOptions {
  const first = chains[0]
  if (!first) throw new Error('defaultWalletOptions needs at least one EVM chain')
  return {
    evm: { privateKey: ANVIL_ACCOUNT_0_PRIVATE_KEY, chains, initialChainId: first.chainId },
    solana: { secretKeySeedHex: TEST_SOLANA_SEED_HEX },
    // On the devnet's own Bitcoin-family chain, which the demo page configures.
    bitcoin: { privateKeyHex: TEST_BITCOIN_PRIVATE_KEY_HEX, network: 'devnet' },
    mode: 'approve',
  }
}

/** The chain ids the EVM wallet knows at start-up. */
export function initialKnownChainIds(evm: EvmWalletOptions): number[] {
  return evm.knownChainIds ?? evm.chains.map((chain) => chain.chainId)
}

/**
 * Checked on the Node side before the options are embedded: a mistake found inside the page would
 * only surface as a console error and a wallet that never appears.
 */
export function validateWalletOptions(options: WalletOptions): void {
  if (options.mode !== undefined && options.mode !== 'approve' && options.mode !== 'reject') {
    throw new Error(`Unknown wallet mode ${String(options.mode)}`)
  }
  if (options.evm) validateEvmOptions(options.evm)
  if (options.solana) requireHexKey('solana.secretKeySeedHex', options.solana.secretKeySeedHex)
  if (options.bitcoin) {
    requireHexKey('bitcoin.privateKeyHex', options.bitcoin.privateKeyHex)
    if (!['regtest', 'testnet', 'devnet'].includes(options.bitcoin.network)) {
      throw new Error(`Unknown bitcoin network ${String(options.bitcoin.network)}`)
    }
  }
}

function validateEvmOptions(evm: EvmWalletOptions): void {
  requireHexKey('evm.privateKey', evm.privateKey)
  const configured = new Set(evm.chains.map((chain) => chain.chainId))
  const known = initialKnownChainIds(evm)
  const unconfigured = known.filter((id) => !configured.has(id))
  if (unconfigured.length > 0)
    throw new Error(`evm.knownChainIds not in evm.chains: ${unconfigured.join(', ')}`)
  if (!known.includes(evm.initialChainId)) {
    throw new Error(`evm.initialChainId ${evm.initialChainId} must be one of the known chains`)
  }
}

function requireHexKey(name: string, value: string): void {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(value)) throw new Error(`${name} must be 32 bytes of hex`)
}
