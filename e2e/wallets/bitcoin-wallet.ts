/**
 * Bitcoin test wallet, registered through the Wallet Standard with the `bitcoin:*` features defined by
 * ExodusMovement/bitcoin-wallet-standard (connect, signMessage, signTransaction).
 */

import * as Regtest from '@airlock/devnet/bitcoin-regtest'
import { secp256k1 } from '@noble/curves/secp256k1'
import { Psbt, type Signer } from 'bitcoinjs-lib'
import { invalidParams, isRecord } from './errors.ts'
import { bitcoinIcon } from './icons.ts'
import {
  bitcoinKeyFromPrivateKey,
  bitcoinNetwork,
  bytesToHex,
  hexKeyToBytes,
  signBitcoinMessage,
} from './keys.ts'
import { BITCOIN_WALLET_NAME } from './names.ts'
import type { BitcoinWalletOptions } from './options.ts'
import { confirmWithUser, recordCall, type WalletRuntime } from './runtime.ts'
import {
  type AccountSession,
  createAccountSession,
  type IdentifierString,
  registerWallet,
  requireBytes,
  type SignMessageInput,
  type SignMessageOutput,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardWallet,
  TestWalletAccount,
  type WalletAccount,
} from './wallet-standard.ts'

interface BitcoinInputToSign {
  readonly account: WalletAccount
  readonly signingIndexes: readonly number[]
  readonly sigHash?: number
}

interface BitcoinSignTransactionInput {
  /** BIP-174 PSBT bytes. */
  readonly psbt: Uint8Array
  readonly inputsToSign: readonly BitcoinInputToSign[]
  readonly chain?: IdentifierString
}

/** The features exactly as registered; inputs are still validated at run time since dApps are untyped. */
type BitcoinTestWalletFeatures = {
  readonly 'bitcoin:connect': {
    readonly version: '1.0.0'
    connect(input?: {
      readonly purposes?: readonly ('payment' | 'ordinals')[]
    }): Promise<{ readonly accounts: readonly WalletAccount[] }>
  }
  readonly 'bitcoin:signMessage': {
    readonly version: '1.0.0'
    signMessage(...inputs: readonly SignMessageInput[]): Promise<readonly SignMessageOutput[]>
  }
  readonly 'bitcoin:signTransaction': {
    readonly version: '1.0.0'
    signTransaction(
      ...inputs: readonly BitcoinSignTransactionInput[]
    ): Promise<readonly { readonly signedPsbt: Uint8Array }[]>
  }
  readonly 'standard:events': StandardEventsFeature
  readonly 'standard:disconnect': StandardDisconnectFeature
}

export type BitcoinTestWallet = StandardWallet & { readonly features: BitcoinTestWalletFeatures }

export interface BitcoinWalletControl {
  readonly wallet: BitcoinTestWallet
  /** P2WPKH (bech32) address. */
  readonly address: string
  /** 33-byte compressed public key, hex. */
  readonly publicKeyHex: string
  /** The user disconnects the site in the wallet UI: emits `change` with no accounts. */
  disconnect(): void
}

interface BitcoinSigner {
  readonly options: BitcoinWalletOptions
  readonly chain: IdentifierString
  readonly session: AccountSession
  readonly runtime: WalletRuntime
  readonly psbtSigner: Signer
}

/** bitcoinjs-lib's Signer interface on top of noble, so no ECPair/tiny-secp256k1 (native/wasm) is needed. */
function createPsbtSigner(privateKeyHex: string, publicKey: Uint8Array): Signer {
  const privateKey = hexKeyToBytes(privateKeyHex)
  return {
    publicKey,
    // `lowR` grinding only shortens DER signatures by a byte; validity does not depend on it.
    sign: (hash: Uint8Array) => secp256k1.sign(hash, privateKey, { lowS: true }).toCompactRawBytes(),
  }
}

function signMessages(signer: BitcoinSigner, inputs: readonly unknown[]) {
  recordCall(signer.runtime, 'bitcoin', 'bitcoin:signMessage')
  const messages = inputs.map((input) => {
    if (!isRecord(input)) throw new TypeError('signMessage input must be { account, message }')
    signer.session.requireAccount(input.account)
    return requireBytes(input.message, 'message')
  })
  confirmWithUser(signer.runtime)
  return messages.map((message) => ({
    signedMessage: message,
    signature: signBitcoinMessage(message, signer.options.privateKeyHex),
  }))
}

interface ParsedInputToSign {
  account: unknown
  signingIndexes: number[]
  sigHash?: number
}

function parseInputsToSign(raw: unknown): ParsedInputToSign[] {
  if (!Array.isArray(raw)) throw invalidParams('inputsToSign must be an array')
  return raw.map((item: unknown) => {
    const indexes = isRecord(item) ? item.signingIndexes : undefined
    if (!isRecord(item) || !Array.isArray(indexes) || !indexes.every(Number.isInteger)) {
      throw invalidParams('inputsToSign entries must be { account, signingIndexes: number[] }')
    }
    const sigHash = typeof item.sigHash === 'number' ? item.sigHash : undefined
    return { account: item.account, signingIndexes: indexes.map(Number), sigHash }
  })
}

/** Signs without finalising: the dApp (or a co-signer) decides when the PSBT is complete. */
function signPsbt(
  signer: BitcoinSigner,
  psbtBytes: Uint8Array,
  inputsToSign: readonly ParsedInputToSign[],
): Uint8Array {
  const psbt = Psbt.fromBuffer(psbtBytes, { network: bitcoinNetwork(signer.options.network) })
  for (const { signingIndexes, sigHash } of inputsToSign) {
    for (const index of signingIndexes) {
      psbt.signInput(index, signer.psbtSigner, sigHash === undefined ? undefined : [sigHash])
    }
  }
  return psbt.toBuffer()
}

function signTransactions(signer: BitcoinSigner, inputs: readonly unknown[]) {
  recordCall(signer.runtime, 'bitcoin', 'bitcoin:signTransaction')
  const requests = inputs.map((input) => {
    if (!isRecord(input)) throw new TypeError('signTransaction input must be { psbt, inputsToSign }')
    if (input.chain !== undefined && input.chain !== signer.chain)
      throw invalidParams(`unsupported chain ${String(input.chain)}`)
    const inputsToSign = parseInputsToSign(input.inputsToSign)
    for (const { account } of inputsToSign) signer.session.requireAccount(account)
    return { psbt: requireBytes(input.psbt, 'psbt'), inputsToSign }
  })
  confirmWithUser(signer.runtime)
  return requests.map(({ psbt, inputsToSign }) => ({ signedPsbt: signPsbt(signer, psbt, inputsToSign) }))
}

function buildFeatures(signer: BitcoinSigner): BitcoinTestWalletFeatures {
  const { session, runtime } = signer
  return {
    'bitcoin:connect': {
      version: '1.0.0',
      // `purposes` is accepted but ignored: the wallet has a single P2WPKH payment account.
      connect: async () => {
        recordCall(runtime, 'bitcoin', 'bitcoin:connect')
        return session.connect(false)
      },
    },
    'bitcoin:signMessage': {
      version: '1.0.0',
      signMessage: async (...inputs) => signMessages(signer, inputs),
    },
    'bitcoin:signTransaction': {
      version: '1.0.0',
      signTransaction: async (...inputs) => signTransactions(signer, inputs),
    },
    'standard:events': session.eventsFeature,
    'standard:disconnect': {
      version: '1.0.0',
      disconnect: async () => {
        recordCall(runtime, 'bitcoin', 'standard:disconnect')
        session.disconnect()
      },
    },
  }
}

export function installBitcoinWallet(
  options: BitcoinWalletOptions,
  runtime: WalletRuntime,
): BitcoinWalletControl {
  // The devnet's chain has no Wallet Standard name of its own: its CAIP-2 id names it.
  const chain: IdentifierString =
    options.network === 'devnet' ? Regtest.caipNetworkId : `bitcoin:${options.network}`
  const { address, publicKey } = bitcoinKeyFromPrivateKey(options.privateKeyHex, options.network)
  const account = new TestWalletAccount({
    address,
    publicKey,
    chains: [chain],
    features: ['bitcoin:signMessage', 'bitcoin:signTransaction'],
    label: BITCOIN_WALLET_NAME,
  })
  const session = createAccountSession(account, runtime, 'bitcoin')
  const psbtSigner = createPsbtSigner(options.privateKeyHex, publicKey)
  const signer: BitcoinSigner = { options, chain, session, runtime, psbtSigner }
  const wallet: BitcoinTestWallet = Object.freeze({
    version: '1.0.0' as const,
    name: BITCOIN_WALLET_NAME,
    icon: bitcoinIcon,
    chains: [chain],
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
