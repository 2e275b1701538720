/**
 * The signatures the embedded connector makes, each from the secret held for just that call: EVM with
 * viem's local signers (EIP-191, EIP-712, every transaction type), Solana with noble's ed25519 over the exact
 * bytes Wallet Standard hands over. Keys are derived per call and the Solana keypair zeroed after it.
 */
import { ed25519 } from '@noble/curves/ed25519'
import type {
  GetTransactionType,
  Hex,
  SignableMessage,
  TransactionSerializable,
  TransactionSerialized,
  TypedData,
  TypedDataDefinition,
} from 'viem'
import { privateKeyToAccount, signTransaction } from 'viem/accounts'
import * as base58 from '../../shared/encoding/base58.ts'
import * as Keys from './Keys.ts'

/** A Solana transaction this wallet cannot sign: malformed, or not asking for this wallet's signature. */
export class SolanaTransactionError extends Error {
  override name = 'SolanaTransactionError'
}

/**
 * `personal_sign` (EIP-191) by the EVM account of `secret`.
 * @example await Signing.signEvmMessage(secret, 'hello') // '0x…' (65 bytes)
 */
export async function signEvmMessage(secret: Keys.Secret, message: SignableMessage): Promise<Hex> {
  return (await evmAccount(secret)).signMessage({ message })
}

/**
 * `eth_signTypedData_v4` (EIP-712) by the EVM account of `secret`.
 * @example await Signing.signEvmTypedData(secret, { domain, types, primaryType: 'Mail', message })
 */
export async function signEvmTypedData<
  const typedData extends TypedData | Record<string, unknown>,
  primaryType extends keyof typedData | 'EIP712Domain' = keyof typedData,
>(secret: Keys.Secret, definition: TypedDataDefinition<typedData, primaryType>): Promise<Hex> {
  return (await evmAccount(secret)).signTypedData(definition)
}

/**
 * The signed, serialized transaction (legacy, EIP-2930, EIP-1559, EIP-4844 or EIP-7702, by its fields),
 * ready for `eth_sendRawTransaction`. The caller fills nonce, gas and fees; nothing here reads the chain.
 * @example await Signing.signEvmTransaction(secret, { chainId: 1, to, value: 1n, nonce: 0, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })
 */
export async function signEvmTransaction<const transaction extends TransactionSerializable>(
  secret: Keys.Secret,
  transaction: transaction,
): Promise<TransactionSerialized<GetTransactionType<transaction>>> {
  return signTransaction({ privateKey: await evmKey(secret), transaction })
}

/**
 * The 64-byte ed25519 signature of `message` by the Solana account of `secret` (`solana:signMessage`).
 * @example await Signing.signSolanaMessage(secret, new TextEncoder().encode('hello')) // Uint8Array(64)
 */
export async function signSolanaMessage(secret: Keys.Secret, message: Uint8Array): Promise<Uint8Array> {
  const { solana } = await Keys.accountsOf(secret)
  try {
    return ed25519.sign(message, solana.secretKey.subarray(0, 32))
  } finally {
    solana.secretKey.fill(0)
  }
}

/**
 * A wire transaction (legacy or v0, as `solana:signTransaction` carries it) with this wallet's signature in
 * its slot: the position of its key among the message's signer keys. Other signatures are kept as they
 * came. Throws {@link SolanaTransactionError} when the bytes are not a transaction or the wallet is not one
 * of its signers.
 * @example const signed = await Signing.signSolanaTransaction(secret, tx.serialize({ requireAllSignatures: false }))
 */
export async function signSolanaTransaction(secret: Keys.Secret, wire: Uint8Array): Promise<Uint8Array> {
  const { solana } = await Keys.accountsOf(secret)
  try {
    const { message, signatures, signers } = parseWire(wire)
    const publicKey = base58.decode(solana.address)
    const slot = signers.findIndex((key) => equal(key, publicKey))
    if (slot < 0)
      throw new SolanaTransactionError('This transaction does not ask for this wallet’s signature.')
    const signed = wire.slice()
    signed.set(ed25519.sign(message, solana.secretKey.subarray(0, 32)), signatures + slot * 64)
    return signed
  } finally {
    solana.secretKey.fill(0)
  }
}

async function evmKey(secret: Keys.Secret): Promise<Hex> {
  const { eip155, solana } = await Keys.accountsOf(secret)
  solana.secretKey.fill(0)
  return eip155.privateKey
}

/** The EVM account of `secret` as a viem signer; the smart accounts' owner borrows it per signature. */
export async function evmAccount(secret: Keys.Secret) {
  return privateKeyToAccount(await evmKey(secret))
}

/** Where the parts of a wire transaction sit, per https://solana.com/docs/core/transactions. */
type Wire = {
  /** The message bytes, which every signature covers. */
  message: Uint8Array
  /** The offset of the first signature. */
  signatures: number
  /** The keys whose signatures the message requires, in signature order. */
  signers: Uint8Array[]
}

function parseWire(wire: Uint8Array): Wire {
  const [count, signatures] = compactU16(wire, 0)
  const message = wire.subarray(signatures + count * 64)
  // A versioned message starts with 0x80 | version; a legacy one with its header.
  const first = message[0] ?? fail('The transaction has no message.')
  const versioned = (first & 0x80) !== 0
  if (versioned && first !== 0x80) fail(`Unsupported transaction version ${first & 0x7f}.`)
  const header = versioned ? 1 : 0
  const required = message[header] ?? fail('The message has no header.')
  if (required !== count) fail(`The message asks for ${required} signatures; the transaction has ${count}.`)
  const [keyCount, keysAt] = compactU16(message, header + 3)
  if (keyCount < required || keysAt + keyCount * 32 > message.length)
    fail('The message’s keys are cut short.')
  const signers = Array.from({ length: required }, (_, i) =>
    message.subarray(keysAt + i * 32, keysAt + (i + 1) * 32),
  )
  return { message, signatures, signers }
}

// Solana's compact-u16 (shortvec): 7 bits a byte, least significant first, at most 3 bytes.
function compactU16(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[at + i] ?? fail('The transaction is cut short.')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, at + i + 1]
  }
  return fail('A length in the transaction is too long.')
}

function fail(message: string): never {
  throw new SolanaTransactionError(message)
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
