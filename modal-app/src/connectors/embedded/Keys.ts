/**
 * The embedded wallet's one secret and what derives from it (SECURITY.md, "The embedded wallet's custody").
 * The secret is BIP-39 entropy: 32 random bytes for a new wallet (24 words), or the entropy of any valid
 * English mnemonic a visitor imports (12 to 24 words). From its seed (empty passphrase) come the EVM key at
 * `m/44'/60'/0'/0/0` (BIP-32) and the Solana key at `m/44'/501'/0'/0'` (SLIP-10), the accounts MetaMask and
 * Phantom derive from the same words.
 *
 * Pure and browser-safe: WebCrypto through `globalThis.crypto`, no storage, no network. Buffers this module
 * creates for the seed and intermediate keys are zeroed after use; the strings it must return (the
 * mnemonic, the EVM key as viem wants it) cannot be, so callers keep them only as long as a signature takes.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { sha256 } from '@noble/hashes/sha2'
import { HDKey } from '@scure/bip32'
import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { type Address, bytesToHex, type Hex, hexToBytes } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import * as base58 from '../../shared/encoding/base58.ts'
import * as Slip10 from './internal/slip10.ts'

/** BIP-39 entropy: 16, 20, 24, 28 or 32 bytes. */
export type Secret = Uint8Array

/** The keys and addresses of one secret, one account per namespace. */
export type Accounts = {
  eip155: {
    /** EIP-55 checksummed. */
    address: Address
    privateKey: Hex
  }
  solana: {
    /** The base58 public key. */
    address: string
    /** The 64-byte ed25519 keypair as Solana wallets hold it: the 32-byte private seed, then the public key. */
    secretKey: Uint8Array
  }
}

const evmPath = "m/44'/60'/0'/0/0"
const solanaPath = "m/44'/501'/0'/0'"

/** A mnemonic that is not a valid English BIP-39 phrase; the message says why without repeating words. */
export class InvalidMnemonicError extends Error {
  override name = 'InvalidMnemonicError'
}

/**
 * A new secret: 256 random bits from the platform's CSPRNG.
 * @example const secret = Keys.createSecret() // Uint8Array(32)
 */
export function createSecret(): Secret {
  return globalThis.crypto.getRandomValues(new Uint8Array(32))
}

/**
 * The English BIP-39 mnemonic whose entropy is `secret`: 24 words for a secret from {@link createSecret}.
 * @example Keys.mnemonicOf(new Uint8Array(16)) // 'abandon abandon … about'
 */
export function mnemonicOf(secret: Secret): string {
  assertSecret(secret)
  return entropyToMnemonic(secret, wordlist)
}

/**
 * The secret (BIP-39 entropy) of an English mnemonic, checksum checked. Case and extra spaces are forgiven;
 * an unknown word, a wrong count or a failed checksum throws {@link InvalidMnemonicError}.
 * @example Keys.secretOf('test test test test test test test test test test test junk') // Uint8Array(16)
 */
export function secretOf(mnemonic: string): Secret {
  const words = mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/)
  if (![12, 15, 18, 21, 24].includes(words.length))
    throw new InvalidMnemonicError(
      `A recovery phrase has 12, 15, 18, 21 or 24 words; this one has ${words.length}.`,
    )
  const unknown = words.findIndex((word) => !wordlist.includes(word))
  if (unknown >= 0)
    throw new InvalidMnemonicError(`Word ${unknown + 1} is not in the BIP-39 English word list.`)
  try {
    return mnemonicToEntropy(words.join(' '), wordlist)
  } catch (cause) {
    throw new InvalidMnemonicError(
      'The recovery phrase does not check out: a word is wrong or out of order.',
      {
        cause,
      },
    )
  }
}

/**
 * The EVM and Solana accounts of `secret`. Asynchronous because the BIP-39 seed (PBKDF2-HMAC-SHA512, 2048
 * rounds) comes from WebCrypto: about ten times faster than in JavaScript, and off the main thread's budget.
 * @example
 * const { eip155, solana } = await Keys.accountsOf(Keys.secretOf('test test … junk'))
 * eip155.address // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 */
export async function accountsOf(secret: Secret): Promise<Accounts> {
  const seed = await seedOf(mnemonicOf(secret))
  try {
    return { eip155: evmAccount(seed), solana: solanaAccount(seed) }
  } finally {
    seed.fill(0)
  }
}

/**
 * A short public tag of the wallet: the first 8 bytes of SHA-256 over its EVM address's 20 bytes. Shares
 * carry it so that combining two that do not belong together is an error, not a wrong wallet; it says no
 * more than the address, which is public.
 * @example Keys.fingerprintOf('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // Uint8Array(8)
 */
export function fingerprintOf(address: Address): Uint8Array {
  return sha256(hexToBytes(address)).slice(0, 8)
}

/** {@link fingerprintOf} the EVM address of `secret`. */
export async function fingerprint(secret: Secret): Promise<Uint8Array> {
  const { eip155, solana } = await accountsOf(secret)
  solana.secretKey.fill(0)
  return fingerprintOf(eip155.address)
}

/** Throws unless `secret` has a BIP-39 entropy length. */
export function assertSecret(secret: Secret): void {
  if (![16, 20, 24, 28, 32].includes(secret.length))
    throw new RangeError(`A secret is 16 to 32 bytes in steps of 4, not ${secret.length}.`)
}

// BIP-39: PBKDF2-HMAC-SHA512 over the NFKD mnemonic, salt "mnemonic" + passphrase (empty), 2048 rounds.
async function seedOf(mnemonic: string): Promise<Uint8Array> {
  const password = new TextEncoder().encode(mnemonic.normalize('NFKD'))
  try {
    const key = await globalThis.crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
    const salt = new TextEncoder().encode('mnemonic')
    const bits = await globalThis.crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-512', salt, iterations: 2048 },
      key,
      512,
    )
    return new Uint8Array(bits)
  } finally {
    password.fill(0)
  }
}

function evmAccount(seed: Uint8Array): Accounts['eip155'] {
  const root = HDKey.fromMasterSeed(seed)
  const child = root.derive(evmPath)
  root.wipePrivateData()
  if (!child.privateKey) throw new Error('BIP-32 derivation gave no private key.')
  const privateKey = bytesToHex(child.privateKey)
  child.wipePrivateData()
  return { address: privateKeyToAddress(privateKey), privateKey }
}

function solanaAccount(seed: Uint8Array): Accounts['solana'] {
  const node = Slip10.derive(seed, Slip10.parsePath(solanaPath))
  const publicKey = ed25519.getPublicKey(node.key)
  const secretKey = new Uint8Array(64)
  secretKey.set(node.key)
  secretKey.set(publicKey, 32)
  Slip10.wipe(node)
  return { address: base58.encode(publicKey), secretKey }
}
