/**
 * Node-side checks of what the page-side wallets produced. They re-derive nothing from the wallets'
 * own code paths except addresses (keys.ts), so a signing bug in the page cannot hide itself.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import bs58 from 'bs58'
import { type Address, type Hex, type TypedDataDefinition, verifyMessage, verifyTypedData } from 'viem'
import {
  bitcoinKeyFromPrivateKey,
  bitcoinMessageHash,
  evmAddressFromPrivateKey,
  solanaKeyFromSeed,
} from './keys.ts'
import type { WalletOptions } from './options.ts'

/** Bytes as they come back from page.evaluate (plain arrays) or from Node code (Uint8Array). */
export type BytesLike = Uint8Array | readonly number[]

/** Strings are UTF-8 text. */
export type MessageLike = string | BytesLike

function toBytes(value: MessageLike): Uint8Array {
  return typeof value === 'string' ? utf8ToBytes(value) : Uint8Array.from(value)
}

/** `message` as passed to personal_sign: text, or `{ raw }` for hex bytes. */
export function verifyEvmPersonalSign(
  message: string | { raw: Hex },
  signature: Hex,
  address: Address,
): Promise<boolean> {
  return verifyMessage({ address, message, signature })
}

export function verifyEvmTypedData(
  typedData: TypedDataDefinition,
  signature: Hex,
  address: Address,
): Promise<boolean> {
  return verifyTypedData({ ...typedData, address, signature })
}

export function verifySolanaSignature(
  message: MessageLike,
  signature: BytesLike,
  publicKeyBase58: string,
): boolean {
  return ed25519.verify(Uint8Array.from(signature), toBytes(message), bs58.decode(publicKeyBase58))
}

const BIP137_FIRST_HEADER = 27
const BIP137_LAST_HEADER = 42

/**
 * Checks a 65-byte BIP-137 signature (header || r || s) over the Bitcoin signed-message hash by
 * recovering the key and comparing it with `publicKeyHex` (compressed or not), then verifying.
 */
export function verifyBitcoinMessage(
  message: MessageLike,
  signature: BytesLike,
  publicKeyHex: string,
): boolean {
  const bytes = Uint8Array.from(signature)
  const header = bytes[0]
  if (bytes.length !== 65 || header === undefined) return false
  if (header < BIP137_FIRST_HEADER || header > BIP137_LAST_HEADER) return false
  const hash = bitcoinMessageHash(toBytes(message))
  try {
    const compact = bytes.slice(1)
    const recovered = secp256k1.Signature.fromCompact(compact)
      .addRecoveryBit((header - BIP137_FIRST_HEADER) % 4)
      .recoverPublicKey(hash)
    const expected = secp256k1.ProjectivePoint.fromHex(publicKeyHex)
    return recovered.equals(expected) && secp256k1.verify(compact, hash, expected.toRawBytes(true))
  } catch {
    return false
  }
}

export interface WalletAddresses {
  evm?: { address: Address }
  solana?: { address: string; publicKeyBase58: string; publicKeyHex: string }
  bitcoin?: { address: string; publicKeyHex: string }
}

/** What the page-side wallets will report for these options, for assertions on the Node side. */
export function addressesFromOptions(options: WalletOptions): WalletAddresses {
  const addresses: WalletAddresses = {}
  if (options.evm) addresses.evm = { address: evmAddressFromPrivateKey(options.evm.privateKey) }
  if (options.solana) {
    const { address, publicKey } = solanaKeyFromSeed(options.solana.secretKeySeedHex)
    addresses.solana = { address, publicKeyBase58: address, publicKeyHex: bytesToHex(publicKey) }
  }
  if (options.bitcoin) {
    const { address, publicKey } = bitcoinKeyFromPrivateKey(
      options.bitcoin.privateKeyHex,
      options.bitcoin.network,
    )
    addresses.bitcoin = { address, publicKeyHex: bytesToHex(publicKey) }
  }
  return addresses
}
