/**
 * Wire transactions in and out: base58/base64 text to a kit `Transaction` and its compiled message (the
 * form litesvm 1.5 executes), the account keys a message touches (address lookup tables included), the fee
 * the runtime charges for it, and the `json` shape getTransaction returns.
 */
import {
  type Address,
  type Blockhash,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  getAddressDecoder,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type ReadonlyUint8Array,
  type Transaction,
} from '@solana/kit'
import { invalidParams } from './Rpc.ts'

export type Message = Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }> &
  CompiledTransactionMessageWithLifetime

export type Wire = {
  bytes: Uint8Array
  transaction: Transaction
  message: Message
  /** Base58, in signer order; a missing signature reads as 64 zero bytes, as the node prints it. */
  signatures: string[]
  signed: boolean
}

type Loaded = { writable: Address[]; readonly: Address[] }
export type Keys = { all: Address[]; loaded: Loaded }

export const systemProgram = '11111111111111111111111111111111' as Address
const computeBudgetProgram = 'ComputeBudget111111111111111111111111111111'
const lookupTableProgram = 'AddressLookupTab1e1111111111111111111111111'
const memoPrograms = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]
// Without a compute-unit limit, builtins (the compute budget program too) get 3,000 units per instruction and
// everything else 200,000 (SIMD-0170); the priority fee is priced on that.
const builtins = new Set([
  systemProgram,
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  lookupTableProgram,
  computeBudgetProgram,
])
const lamportsPerSignature = 5_000n
const maxComputeUnits = 1_400_000n
const lookupTableHeaderBytes = 56
const zeroSignature = getBase58Decoder().decode(new Uint8Array(64))

/** A transaction as sendTransaction/simulateTransaction receive it; -32602 for anything that does not parse. */
export function decode(text: string, encoding: 'base58' | 'base64'): Wire {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(encoding === 'base64' ? base64Bytes(text) : getBase58Encoder().encode(text))
  } catch {
    throw invalidParams(
      `invalid ${encoding === 'base64' ? 'base64' : 'base58'} encoding: ${text.slice(0, 20)}…`,
    )
  }
  try {
    return fromBytes(bytes)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw invalidParams(
      `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${reason}`,
    )
  }
}

/** A wire transaction from its bytes; throws on anything that is not a legacy or v0 transaction. */
export function fromBytes(bytes: Uint8Array): Wire {
  const transaction = getTransactionDecoder().decode(bytes)
  const message = decodeMessage(transaction.messageBytes)
  const signatures = Object.values(transaction.signatures).map((s) =>
    s ? getBase58Decoder().decode(s) : zeroSignature,
  )
  const signed = Object.values(transaction.signatures).every((s) => s !== null)
  return { bytes, transaction, message, signatures, signed }
}

export function decodeMessage(bytes: Uint8Array | Transaction['messageBytes']): Message {
  const message = getCompiledTransactionMessageDecoder().decode(bytes)
  if (message.version !== 'legacy' && message.version !== 0) {
    throw new Error(`transaction version ${message.version} is not supported`)
  }
  return message as Message
}

function base64Bytes(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('not base64')
  return new Uint8Array(getBase64Encoder().encode(text))
}

export function blockhashOf(message: Message): Blockhash {
  return message.lifetimeToken as Blockhash
}

/**
 * Every key the message loads, in the runtime's order: static keys, then lookup-table writables, then
 * lookup-table readonlys. Undefined when a table is missing or an index is out of range; litesvm then
 * rejects the transaction with the matching error.
 */
export function keysOf(
  message: Message,
  readTable: (address: Address) => ReadonlyUint8Array | undefined,
): Keys | undefined {
  const loaded: Loaded = { writable: [], readonly: [] }
  const lookups = message.version === 0 ? (message.addressTableLookups ?? []) : []
  for (const lookup of lookups) {
    const data = readTable(lookup.lookupTableAddress)
    if (!data) return undefined
    const table = tableAddresses(data)
    const pick = (indexes: readonly number[]) => indexes.map((index) => table[index])
    const writable = pick(lookup.writableIndexes)
    const readonly = pick(lookup.readonlyIndexes)
    if (!writable.every(isDefined) || !readonly.every(isDefined)) return undefined
    loaded.writable.push(...writable)
    loaded.readonly.push(...readonly)
  }
  return { all: [...message.staticAccounts, ...loaded.writable, ...loaded.readonly], loaded }
}

/** The owner a lookup table's account must have for `keysOf` to read it. */
export const lookupTableOwner = lookupTableProgram as Address

function tableAddresses(data: ReadonlyUint8Array): Address[] {
  const decoder = getAddressDecoder()
  const addresses: Address[] = []
  for (let offset = lookupTableHeaderBytes; offset + 32 <= data.length; offset += 32) {
    addresses.push(decoder.decode(data.subarray(offset, offset + 32)))
  }
  return addresses
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined
}

/** Whether the runtime may write the key at `index` of `keys.all`. */
export function isWritable(message: Message, keys: Keys, index: number): boolean {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header
  const statics = message.staticAccounts.length
  if (index < numSignerAccounts) return index < numSignerAccounts - numReadonlySignerAccounts
  if (index < statics) return index < statics - numReadonlyNonSignerAccounts
  return index < statics + keys.loaded.writable.length
}

/** The fee the runtime charges: 5,000 lamports a signature plus the priority fee the message asks for. */
export function fee(message: Message): bigint {
  let price = 0n
  let limit: bigint | undefined
  let defaultLimit = 0n
  for (const instruction of message.instructions) {
    const program = message.staticAccounts[instruction.programAddressIndex]
    const data = instruction.data ?? new Uint8Array()
    defaultLimit += program && builtins.has(program) ? 3_000n : 200_000n
    if (program !== computeBudgetProgram) continue
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (data[0] === 2 && data.length >= 5) limit = BigInt(view.getUint32(1, true))
    if (data[0] === 3 && data.length >= 9) price = view.getBigUint64(1, true)
  }
  const units = limit ?? (defaultLimit < maxComputeUnits ? defaultLimit : maxComputeUnits)
  const priority = (price * units + 999_999n) / 1_000_000n
  return BigInt(message.header.numSignerAccounts) * lamportsPerSignature + priority
}

/** A durable-nonce transaction opens with AdvanceNonceAccount; its lifetime token is the nonce, not a blockhash. */
export function usesDurableNonce(message: Message): boolean {
  const first = message.instructions[0]
  const data = first?.data
  return (
    first !== undefined &&
    message.staticAccounts[first.programAddressIndex] === systemProgram &&
    data !== undefined &&
    data.length >= 4 &&
    new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === 4
  )
}

/** The memo column of getSignaturesForAddress: each SPL memo as `[length] text`, joined by "; ". */
export function memoOf(message: Message): string | null {
  const memos = message.instructions.flatMap((instruction) => {
    const program = message.staticAccounts[instruction.programAddressIndex]
    if (!program || !memoPrograms.includes(program) || !instruction.data) return []
    const text = new TextDecoder().decode(instruction.data)
    return [`[${instruction.data.length}] ${text}`]
  })
  return memos.length === 0 ? null : memos.join('; ')
}

/** The `transaction` field of getTransaction in the `json` encoding. */
export function toJson(wire: Wire): unknown {
  const { message } = wire
  const base58 = getBase58Decoder()
  const lookups =
    message.version === 0
      ? {
          addressTableLookups: (message.addressTableLookups ?? []).map((lookup) => ({
            accountKey: lookup.lookupTableAddress,
            readonlyIndexes: lookup.readonlyIndexes,
            writableIndexes: lookup.writableIndexes,
          })),
        }
      : {}
  return {
    message: {
      accountKeys: message.staticAccounts,
      ...lookups,
      header: {
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
        numRequiredSignatures: message.header.numSignerAccounts,
      },
      instructions: message.instructions.map((instruction) => ({
        accounts: instruction.accountIndices ?? [],
        data: base58.decode(instruction.data ?? new Uint8Array()),
        programIdIndex: instruction.programAddressIndex,
        stackHeight: null,
      })),
      recentBlockhash: message.lifetimeToken,
    },
    signatures: wire.signatures,
  }
}
