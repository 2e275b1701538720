/**
 * A Solana wire transaction's message, read as far as a preview needs it (https://solana.com/docs/core/transactions):
 * its static keys, its compiled instructions, and whether it borrows keys from address lookup tables. Written
 * here rather than taken from `@solana/web3.js`, whose decoder would bring most of its 60 KB to every first
 * approval, EVM ones included.
 */
import * as base58 from '../../../shared/encoding/base58.ts'

export type CompiledInstruction = { programIdIndex: number; accountKeyIndexes: number[]; data: Uint8Array }

export type Message = {
  /** The message's own keys, base58, the fee payer first. */
  staticAccountKeys: string[]
  compiledInstructions: CompiledInstruction[]
  /** How many address lookup tables a v0 message borrows keys from (none for legacy). */
  lookupTables: number
}

/** Bytes that are not a transaction of a version this reads. */
class WireError extends Error {
  override name = 'WireError'
}

/** Throws {@link WireError} on anything cut short, of another version, or with bytes left over. */
export function read(wire: Uint8Array): Message {
  let at = 0
  const byte = () => {
    const value = wire[at++]
    if (value === undefined) throw new WireError('The transaction is cut short.')
    return value
  }
  const take = (length: number) => {
    if (at + length > wire.length) throw new WireError('The transaction is cut short.')
    const part = wire.subarray(at, at + length)
    at += length
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
  const list = <T>(item: () => T) => Array.from({ length: length() }, item)

  take(length() * 64)
  const versioned = ((wire[at] ?? 0) & 0x80) !== 0
  if (versioned && byte() !== 0x80) throw new WireError('Unsupported transaction version.')
  take(3)
  const staticAccountKeys = list(() => base58.encode(take(32)))
  take(32)
  const compiledInstructions = list(() => ({
    programIdIndex: byte(),
    accountKeyIndexes: list(byte),
    data: take(length()),
  }))
  // An address-table lookup is a table key, then writable and readonly index lists.
  const lookupTable = () => {
    take(32)
    list(byte)
    list(byte)
  }
  const lookupTables = versioned ? list(lookupTable).length : 0
  if (at !== wire.length) throw new WireError('The transaction has bytes after its message.')
  if (staticAccountKeys.length === 0) throw new WireError('The message has no keys.')
  return { staticAccountKeys, compiledInstructions, lookupTables }
}
