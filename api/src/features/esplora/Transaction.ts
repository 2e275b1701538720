/**
 * Transactions decoded once from the node's raw bytes (exact satoshi values as bigint, never the node's
 * floating-point coin amounts), and rendered in Esplora's JSON shapes.
 */
import { type Network, Transaction as RawTransaction } from 'bitcoinjs-lib'
import * as Script from './Script.ts'

/** What the index keeps of a transaction. Hex strings as Esplora shows them (txids in display order). */
export type Decoded = {
  txid: string
  version: number
  locktime: number
  /** Bytes with witness data. */
  size: number
  weight: number
  vin: {
    txid: string
    vout: number
    scriptsig: string
    witness: string[]
    sequence: number
    isCoinbase: boolean
  }[]
  vout: { script: string; value: bigint }[]
}

/** An output someone can spend (or has spent). */
export type Coin = { txid: string; vout: number; script: string; value: bigint }

/** Where a confirmed transaction is. */
export type BlockRef = { height: number; hash: string; time: number }

export type Status =
  | { confirmed: true; block_height: number; block_hash: string; block_time: number }
  | { confirmed: false }

/** `vout[]` entries and `vin[].prevout` of Esplora. */
type Output = {
  scriptpubkey: string
  scriptpubkey_address?: string
  scriptpubkey_type: Script.Type
  value: number
}

/** Esplora's transaction (`GET /tx/:txid`), without the `*_asm` fields. */
export type EsploraTx = {
  txid: string
  version: number
  locktime: number
  vin: {
    txid: string
    vout: number
    prevout: Output | null
    scriptsig: string
    /** Absent when the input has no witness, as in Esplora. */
    witness?: string[]
    is_coinbase: boolean
    sequence: number
  }[]
  vout: Output[]
  size: number
  weight: number
  fee: number
  status: Status
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const displayHex = (hash: Uint8Array) => Buffer.from(hash).reverse().toString('hex')

/**
 * @throws when `raw` is not a transaction bitcoinjs-lib can read (e.g. Litecoin's MWEB serialisation)
 * @example
 * Transaction.fromHex('0200000001…').txid
 */
export function fromHex(raw: string): Decoded {
  return decode(RawTransaction.fromHex(raw))
}

export function decode(tx: RawTransaction): Decoded {
  const coinbase = tx.isCoinbase()
  return {
    txid: tx.getId(),
    version: tx.version,
    locktime: tx.locktime,
    size: tx.byteLength(),
    weight: tx.weight(),
    vin: tx.ins.map((input) => ({
      txid: displayHex(input.hash),
      vout: input.index,
      scriptsig: hex(input.script),
      witness: input.witness.map(hex),
      sequence: input.sequence,
      isCoinbase: coinbase,
    })),
    vout: tx.outs.map((output) => ({ script: hex(output.script), value: output.value })),
  }
}

/** Inputs' value less outputs' value; 0 for a coinbase, undefined while an input's coin is unknown. */
export function feeOf(tx: Decoded, prevouts: readonly (Coin | undefined)[]): bigint | undefined {
  if (tx.vin.every((input) => input.isCoinbase)) return 0n
  let fee = 0n
  for (const coin of prevouts) {
    if (!coin) return undefined
    fee += coin.value
  }
  for (const output of tx.vout) fee -= output.value
  return fee
}

export function statusOf(block: BlockRef | undefined): Status {
  if (!block) return { confirmed: false }
  return { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.time }
}

function renderOutput(output: { script: string; value: bigint }, network: Network): Output {
  const bytes = Buffer.from(output.script, 'hex')
  const address = Script.toAddress(bytes, network)
  return {
    scriptpubkey: output.script,
    ...(address === undefined ? {} : { scriptpubkey_address: address }),
    scriptpubkey_type: Script.type(bytes),
    value: Number(output.value),
  }
}

export type RenderInput = {
  tx: Decoded
  prevouts: readonly (Coin | undefined)[]
  block: BlockRef | undefined
  network: Network
}

/** The Esplora JSON of `tx`; values in satoshis as JSON numbers (exact below 2^53, as every amount is). */
export function render({ tx, prevouts, block, network }: RenderInput): EsploraTx {
  return {
    txid: tx.txid,
    version: tx.version,
    locktime: tx.locktime,
    vin: tx.vin.map((input, i) => {
      const coin = prevouts[i]
      return {
        txid: input.txid,
        vout: input.vout,
        prevout: coin ? renderOutput(coin, network) : null,
        scriptsig: input.scriptsig,
        ...(input.witness.length > 0 ? { witness: input.witness } : {}),
        is_coinbase: input.isCoinbase,
        sequence: input.sequence,
      }
    }),
    vout: tx.vout.map((output) => renderOutput(output, network)),
    size: tx.size,
    weight: tx.weight,
    fee: Number(feeOf(tx, prevouts) ?? 0n),
    status: statusOf(block),
  }
}
