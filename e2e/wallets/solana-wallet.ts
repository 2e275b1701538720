/** Solana test wallet, registered through the Wallet Standard like Phantom/Solflare/Backpack. */
import { ed25519 } from '@noble/curves/ed25519'
import { Keypair, VersionedTransaction } from '@solana/web3.js'
import { isRecord } from './errors.ts'
import { solanaIcon } from './icons.ts'
import { bytesToHex, hexKeyToBytes, solanaKeyFromSeed } from './keys.ts'
import { SOLANA_CHAINS, SOLANA_WALLET_NAME } from './names.ts'
import type { SolanaWalletOptions } from './options.ts'
import { confirmWithUser, recordCall, type WalletRuntime } from './runtime.ts'
import {
  type AccountSession,
  createAccountSession,
  type IdentifierString,
  registerWallet,
  requireBytes,
  type SignMessageInput,
  type SignMessageOutput,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardWallet,
  TestWalletAccount,
  type WalletAccount,
} from './wallet-standard.ts'

interface SolanaSignTransactionInput {
  readonly account: WalletAccount
  /** A serialized legacy or v0 transaction. */
  readonly transaction: Uint8Array
  readonly chain?: IdentifierString
}

/** The features exactly as registered; inputs are still validated at run time since dApps are untyped. */
type SolanaTestWalletFeatures = {
  readonly 'standard:connect': StandardConnectFeature
  readonly 'standard:disconnect': StandardDisconnectFeature
  readonly 'standard:events': StandardEventsFeature
  readonly 'solana:signMessage': {
    readonly version: '1.0.0'
    signMessage(
      ...inputs: readonly SignMessageInput[]
    ): Promise<readonly (SignMessageOutput & { readonly signatureType: 'ed25519' })[]>
  }
  readonly 'solana:signTransaction': {
    readonly version: '1.0.0'
    readonly supportedTransactionVersions: readonly ('legacy' | 0)[]
    signTransaction(
      ...inputs: readonly SolanaSignTransactionInput[]
    ): Promise<readonly { readonly signedTransaction: Uint8Array }[]>
  }
}

export type SolanaTestWallet = StandardWallet & { readonly features: SolanaTestWalletFeatures }

export interface SolanaWalletControl {
  readonly wallet: SolanaTestWallet
  /** base58 public key. */
  readonly address: string
  readonly publicKeyHex: string
  /** The user disconnects the site in the wallet UI: emits `change` with no accounts. */
  disconnect(): void
}

interface SolanaSigner {
  readonly seed: Uint8Array
  readonly keypair: Keypair
  readonly session: AccountSession
  readonly runtime: WalletRuntime
}

function signMessages(signer: SolanaSigner, inputs: readonly unknown[]) {
  recordCall(signer.runtime, 'solana', 'solana:signMessage')
  const messages = inputs.map((input) => {
    if (!isRecord(input)) throw new TypeError('signMessage input must be { account, message }')
    signer.session.requireAccount(input.account)
    return requireBytes(input.message, 'message')
  })
  confirmWithUser(signer.runtime)
  return messages.map((message) => ({
    signedMessage: message,
    signature: ed25519.sign(message, signer.seed),
    signatureType: 'ed25519' as const,
  }))
}

/**
 * VersionedTransaction reads both wire formats (a legacy message simply has no version prefix) and
 * re-serialises the message bytes untouched, so the signature covers exactly what the dApp built.
 */
function signTransactionBytes(bytes: Uint8Array, keypair: Keypair): Uint8Array {
  const transaction = VersionedTransaction.deserialize(bytes)
  transaction.sign([keypair])
  return transaction.serialize()
}

function signTransactions(signer: SolanaSigner, inputs: readonly unknown[]) {
  recordCall(signer.runtime, 'solana', 'solana:signTransaction')
  const transactions = inputs.map((input) => {
    if (!isRecord(input)) throw new TypeError('signTransaction input must be { account, transaction }')
    signer.session.requireAccount(input.account)
    return requireBytes(input.transaction, 'transaction')
  })
  confirmWithUser(signer.runtime)
  return transactions.map((bytes) => ({ signedTransaction: signTransactionBytes(bytes, signer.keypair) }))
}

function buildFeatures(signer: SolanaSigner): SolanaTestWalletFeatures {
  const { session, runtime } = signer
  return {
    'standard:connect': {
      version: '1.0.0',
      connect: async (input) => {
        recordCall(runtime, 'solana', 'standard:connect')
        return session.connect(input?.silent === true)
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      disconnect: async () => {
        recordCall(runtime, 'solana', 'standard:disconnect')
        session.disconnect()
      },
    },
    'standard:events': session.eventsFeature,
    'solana:signMessage': {
      version: '1.0.0',
      signMessage: async (...inputs) => signMessages(signer, inputs),
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: Object.freeze(['legacy', 0] as const),
      signTransaction: async (...inputs) => signTransactions(signer, inputs),
    },
  }
}

export function installSolanaWallet(
  options: SolanaWalletOptions,
  runtime: WalletRuntime,
): SolanaWalletControl {
  const seed = hexKeyToBytes(options.secretKeySeedHex)
  const { address, publicKey } = solanaKeyFromSeed(options.secretKeySeedHex)
  const account = new TestWalletAccount({
    address,
    publicKey,
    chains: SOLANA_CHAINS,
    features: ['solana:signMessage', 'solana:signTransaction'],
    label: SOLANA_WALLET_NAME,
  })
  const session = createAccountSession(account, runtime, 'solana')
  const signer: SolanaSigner = { seed, keypair: Keypair.fromSeed(seed), session, runtime }
  const wallet: SolanaTestWallet = Object.freeze({
    version: '1.0.0' as const,
    name: SOLANA_WALLET_NAME,
    icon: solanaIcon,
    chains: SOLANA_CHAINS,
    features: Object.freeze(buildFeatures(signer)),
    get accounts() {
      return session.accounts()
    },
  })
  registerWallet(wallet)
  return Object.freeze({
    wallet,
    address,
    publicKeyHex: bytesToHex(publicKey),
    disconnect: session.disconnect,
  })
}
