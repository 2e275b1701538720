/**
 * An EVM block and its receipts, read into the indexer's transactions and transfers: the receipt says
 * whether a transaction failed, and its logs say what tokens moved — ERC-20 and ERC-721 `Transfer`, ERC-1155
 * `TransferSingle` and `TransferBatch`. Everything the RPC answered is checked here, once.
 */
import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import { decodeAbiParameters, toEventSelector } from 'viem'
import * as JsonRpc from '../JsonRpc.ts'
import type { Block, Transaction, TransactionKind, Transfer } from '../Source.ts'

const topic = {
  transfer: toEventSelector('Transfer(address,address,uint256)'),
  single: toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
  batch: toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])'),
}
// approve(address,uint256) and setApprovalForAll(address,bool): ERC-20, ERC-721 and ERC-1155 approvals.
const approvals = new Set(['0x095ea7b3', '0xa22cb465'])
const zero = `0x${'0'.repeat(40)}`
// Batch items share their log's index, so positions leave room for them: log i, item j → (i + 1) · 2²⁰ + j.
const batchRoom = 2 ** 20

type RawTx = {
  hash: string
  transactionIndex: string
  from: string
  to: string | null
  value: string
  input: string
}
export type RawBlock = {
  number: string
  hash: string
  parentHash: string
  timestamp: string
  transactions: RawTx[]
}
type RawLog = { address: string; topics: string[]; data: string; logIndex: string; removed?: boolean }
export type RawReceipt = {
  transactionHash: string
  blockHash: string
  status?: string
  contractAddress?: string | null
  logs: RawLog[]
}

export function parseBlock(raw: RawBlock, receipts: RawReceipt[]): Block {
  const hash = word(raw.hash)
  const byHash = new Map(receipts.map((receipt) => [word(receipt.transactionHash), receipt]))
  const transactions = (list(raw.transactions) as RawTx[]).map((tx): Transaction => {
    const receipt = byHash.get(word(tx.hash))
    // Receipts of another block mean the chain moved between the two reads: read again.
    if (!receipt || word(receipt.blockHash) !== hash)
      throw new JsonRpc.RpcUnavailable('the chain moved during a read')
    return parseTransaction(tx, receipt)
  })
  return {
    number: quantity(raw.number),
    hash,
    parentHash: word(raw.parentHash),
    timestamp: quantity(raw.timestamp) * 1000,
    transactions,
  }
}

function parseTransaction(tx: RawTx, receipt: RawReceipt): Transaction {
  // Receipts before Byzantium carry a state root instead of a status; those transactions did not fail.
  const status = receipt.status === '0x0' ? 'failed' : 'confirmed'
  const from = address(tx.from)
  const to = tx.to ? address(tx.to) : receipt.contractAddress ? address(receipt.contractAddress) : ''
  const value = BigInt(quantityText(tx.value))
  const input = typeof tx.input === 'string' ? tx.input.toLowerCase() : '0x'
  const kind: TransactionKind = !tx.to
    ? 'deploy'
    : input === '0x'
      ? 'send'
      : approvals.has(input.slice(0, 10))
        ? 'approve'
        : 'execute'
  const transfers: Transfer[] = []
  if (status === 'confirmed') {
    if (value > 0n && to) transfers.push({ position: 0, kind: 'native', asset: '', from, to, amount: value })
    for (const log of list(receipt.logs)) transfers.push(...transfersOf(log as RawLog))
  }
  return { hash: word(tx.hash), index: quantity(tx.transactionIndex), status, kind, from, to, transfers }
}

/** The transfers a log records, or none when it records none (or lies about its shape). */
function transfersOf(log: RawLog): Transfer[] {
  const [signature, a, b, c] = list(log.topics) as string[]
  if (log.removed || !signature) return []
  const position = (quantity(log.logIndex) + 1) * batchRoom
  const asset = address(log.address)
  const data = typeof log.data === 'string' ? log.data : '0x'
  try {
    if (signature === topic.transfer && a && b && !c && data.length === 66)
      return [{ position, kind: 'fungible', asset, from: party(a), to: party(b), amount: BigInt(data) }]
    if (signature === topic.transfer && a && b && c && data === '0x')
      return [
        {
          position,
          kind: 'nft',
          asset,
          from: party(a),
          to: party(b),
          tokenId: BigInt(c).toString(),
          amount: 1n,
        },
      ]
    if (signature === topic.single && b && c && data.length === 130) {
      const [id, amount] = [BigInt(data.slice(0, 66)), BigInt(`0x${data.slice(66)}`)]
      return [{ position, kind: 'nft', asset, from: party(b), to: party(c), tokenId: id.toString(), amount }]
    }
    if (signature === topic.batch && b && c) {
      const [ids, amounts] = decodeAbiParameters(
        [{ type: 'uint256[]' }, { type: 'uint256[]' }],
        data as `0x${string}`,
      )
      if (ids.length !== amounts.length || ids.length >= batchRoom) return []
      return ids.map((id, j) => ({
        position: position + j,
        kind: 'nft' as const,
        asset,
        from: party(b),
        to: party(c),
        tokenId: id.toString(),
        amount: amounts[j] ?? 0n,
      }))
    }
  } catch {
    // A contract can emit any bytes under a standard event's signature; such a log moved nothing we can read.
  }
  return []
}

/** An indexed address topic; the zero address (a mint's sender, a burn's recipient) becomes ''. */
function party(topic: string): string {
  const found = `0x${topic.slice(-40).toLowerCase()}`
  return found === zero ? '' : found
}

function address(value: unknown): string {
  if (typeof value !== 'string' || !isEvmAddress(value)) throw nonsense('an address')
  return value.toLowerCase()
}

export function word(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw nonsense('a hash')
  return value.toLowerCase()
}

function quantityText(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw nonsense('a quantity')
  return value
}

export function quantity(value: unknown): number {
  const n = Number(quantityText(value))
  if (!Number.isSafeInteger(n)) throw nonsense('a small quantity')
  return n
}

export function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw nonsense('a list')
  return value
}

function nonsense(expected: string): JsonRpc.RpcUnavailable {
  return new JsonRpc.RpcUnavailable(`the RPC answered something that is not ${expected}`)
}
