/**
 * Solana's wire format, read as far as the modal needs it (https://solana.com/docs/core/transactions): a
 * transaction's message for a preview (its static keys, its compiled instructions, whether it borrows keys
 * from address lookup tables), and whether bytes a dApp hands over as a "message" are in fact a
 * transaction's message. Written here rather than taken from `@solana/web3.js`, whose decoder would bring
 * most of its 60 KB to every first approval, EVM ones included.
 */
import { Errors } from '@airlock/bridge-protocol'
import * as base58 from '../encoding/base58.ts'

export type CompiledInstruction = { programIdIndex: number; accountKeyIndexes: number[]; data: Uint8Array }

export type Message = {
  /** The message's own keys, base58, the fee payer first. */
  staticAccountKeys: string[]
  compiledInstructions: CompiledInstruction[]
  /** How many address lookup tables a v0 message borrows keys from (none for legacy). */
  lookupTables: number
}

/** Bytes that are not a transaction, or a message, of a version this reads. */
class WireError extends Error {
  override name = 'WireError'
}

/**
 * The signing domain of Solana's off-chain messages (`solana sign-offchain-message`): a first byte no
 * transaction message has, so that such a signature can never be a transaction's.
 */
const offchainDomain = Uint8Array.of(0xff, ...new TextEncoder().encode('solana offchain'))

/** What a dApp is told when it asks to sign a transaction's message as a message. */
export const transactionAsMessage =
  'This message is a Solana transaction: ask for it with solana:signTransaction, where the wallet shows what it does.'

/** Reads a wire transaction: its signatures, then its message. Throws on anything else. */
export function read(wire: Uint8Array): Message {
  const reader = readerOf(wire)
  reader.take(reader.length() * 64)
  return messageFrom(reader)
}

/**
 * Reads bytes that are exactly a transaction's message, legacy or v0, as the runtime would accept it:
 * header, keys, recent blockhash, instructions, lookup tables, nothing after. Throws on anything else.
 */
export function readMessage(bytes: Uint8Array): Message {
  return messageFrom(readerOf(bytes))
}

/**
 * Whether `bytes` are a transaction's message: an ed25519 signature over them is that transaction signed,
 * ready to broadcast. An off-chain message (its signing domain first) never is.
 */
export function isTransactionMessage(bytes: Uint8Array): boolean {
  if (startsWith(bytes, offchainDomain)) return false
  try {
    readMessage(bytes)
    return true
  } catch (error) {
    if (error instanceof WireError) return false
    throw error
  }
}

/**
 * Refuses, with -32602, to sign as a message bytes that are a transaction's message: the visitor would see a
 * meaningless hex string while signing a transfer (Phantom refuses them too).
 * @example
 * Message.refuseTransaction(request.params.message) // throws for `transaction.serializeMessage()`
 */
export function refuseTransaction(bytes: Uint8Array): void {
  if (isTransactionMessage(bytes)) throw new Errors.InvalidParamsError(transactionAsMessage)
}

function messageFrom(reader: Reader): Message {
  const { byte, take, length, list, done } = reader
  const versioned = (reader.peek() & 0x80) !== 0
  if (versioned && byte() !== 0x80) throw new WireError('Unsupported transaction version.')
  const [signers, readonlySigned, readonlyUnsigned] = [byte(), byte(), byte()]
  const staticAccountKeys = list(() => base58.encode(take(32)))
  take(32)
  const compiledInstructions = list(() => ({
    programIdIndex: byte(),
    accountKeyIndexes: list(byte),
    data: take(length()),
  }))
  // An address-table lookup is a table key, then writable and readonly index lists: it lends that many keys.
  const lookup = () => {
    take(32)
    return list(byte).length + list(byte).length
  }
  const lookups = versioned ? list(lookup) : []
  done()
  // The runtime's sanitize rules: a message that breaks them is no transaction any node would take.
  const keys = staticAccountKeys.length + lookups.reduce((sum, count) => sum + count, 0)
  if (readonlySigned >= signers || signers + readonlyUnsigned > staticAccountKeys.length)
    throw new WireError('The message header does not match its keys.')
  for (const { programIdIndex, accountKeyIndexes } of compiledInstructions)
    if (programIdIndex === 0 || [programIdIndex, ...accountKeyIndexes].some((index) => index >= keys))
      throw new WireError('An instruction names a key the message does not have.')
  return { staticAccountKeys, compiledInstructions, lookupTables: lookups.length }
}

type Reader = ReturnType<typeof readerOf>

function readerOf(bytes: Uint8Array) {
  let at = 0
  const byte = () => {
    const value = bytes[at++]
    if (value === undefined) throw new WireError('The transaction is cut short.')
    return value
  }
  const take = (count: number) => {
    if (at + count > bytes.length) throw new WireError('The transaction is cut short.')
    const part = bytes.subarray(at, at + count)
    at += count
    return part
  }
  // Solana's compact-u16 (shortvec): 7 bits a byte, least significant first, at most 3 bytes.
  const length = () => {
    let value = 0
    for (let i = 0; i < 3; i++) {
      const next = byte()
      value |= (next & 0x7f) << (7 * i)
      if ((next & 0x80) === 0) return value
    }
    throw new WireError('A length in the transaction is too long.')
  }
  return {
    byte,
    take,
    length,
    list: <T>(item: () => T) => Array.from({ length: length() }, item),
    peek: () => bytes[at] ?? 0,
    done: () => {
      if (at !== bytes.length) throw new WireError('The transaction has bytes after its message.')
    },
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte)
}
