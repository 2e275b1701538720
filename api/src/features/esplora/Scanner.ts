/**
 * Keeps an {@link Index} level with a node that has no address index: follows the node's best chain block
 * by block (each block must name the index's tip as its parent, so a reorg is noticed and the index walks
 * back to the fork), then mirrors the node's mempool. Syncs run one at a time; a caller arriving during a
 * sync waits for the next one, so what it reads is at least as new as its request.
 */
import { Block as RawBlock } from 'bitcoinjs-lib'
import type { Index } from './Index.ts'
import { type Node, NodeError } from './Node.ts'
import * as Transaction from './Transaction.ts'

export type ScannerOptions = {
  node: Node
  index: Index
  /** The chain's genesis hash must start with this (a CAIP-2 reference); a node of another chain is refused. */
  genesisPrefix?: string
  /** Blocks fetched per round trip while catching up. @default 50 */
  batchSize?: number
}

export type Scanner = {
  /** Brings the index level with the node; resolves once a sync that started after this call is done. */
  sync(): Promise<void>
}

/** Catching up with a tip that moves as we scan (a miner every few seconds) takes a few rounds at most. */
const maxRounds = 5

/**
 * @example
 * const scanner = Scanner.create({ node, index })
 * await scanner.sync()
 * index.stats(script)
 */
export function create(options: ScannerOptions): Scanner {
  const { node, index } = options
  const batchSize = options.batchSize ?? 50
  let current: Promise<void> | undefined
  let next: Promise<void> | undefined

  /** Connects blocks up to the node's tip; false when the chain moved under us and another round is due. */
  const followChain = async (): Promise<boolean> => {
    const tipHash = await node.call<string>('getbestblockhash')
    if (tipHash === index.tip?.hash) return true
    const { height: tipHeight } = await node.call<{ height: number }>('getblockheader', [tipHash])
    await walkBackToFork(node, index, tipHeight)
    for (let from = (index.tip?.height ?? -1) + 1; from <= tipHeight; from += batchSize) {
      const heights = Array.from({ length: Math.min(batchSize, tipHeight - from + 1) }, (_, i) => from + i)
      const hashes = await node.batch(heights.map((height) => ['getblockhash', [height]] as const))
      const raws = await node.batch(hashes.map((hash) => ['getblock', [hash, 0]] as const))
      for (const [i, raw] of raws.entries()) {
        const height = heights[i] ?? -1
        // A hash or block gone, or a parent that is not our tip: the node switched branches mid-scan.
        if (typeof raw !== 'string' || typeof hashes[i] !== 'string') return gone(hashes[i], raw)
        const block = RawBlock.fromHex(raw)
        const prevHash = Buffer.from(block.prevHash ?? new Uint8Array(32))
          .reverse()
          .toString('hex')
        if (prevHash !== (index.tip?.hash ?? '0'.repeat(64))) return false
        if (height === 0) checkGenesis(block.getId(), options.genesisPrefix)
        const txs = (block.transactions ?? []).map(Transaction.decode)
        index.connect({ height, hash: block.getId(), time: block.timestamp, prevHash, txs })
      }
    }
    return index.tip?.hash === tipHash
  }

  const mirrorMempool = async (): Promise<void> => {
    const txids = new Set(await node.call<string[]>('getrawmempool'))
    const known = index.mempoolTxids()
    const fresh = [...txids].filter((txid) => !known.has(txid) && !index.entry(txid))
    const raws = await node.batch(fresh.map((txid) => ['getrawtransaction', [txid]] as const))
    // A transaction that left the mempool between the two calls answers an error: it is simply gone.
    const added = raws.flatMap((raw) => (typeof raw === 'string' ? [Transaction.fromHex(raw)] : []))
    index.updateMempool(txids, added)
  }

  const syncOnce = async (): Promise<void> => {
    for (let round = 0; round < maxRounds; round++) {
      const level = await followChain()
      await mirrorMempool()
      // A mempool spend of a coin whose block we have not connected: that block came in between.
      if (level && !index.hasUnknownPrevouts()) return
    }
  }

  const sync = (): Promise<void> => {
    if (!current) {
      current = syncOnce().finally(() => {
        current = undefined
      })
      return current
    }
    next ??= current
      .catch(() => undefined)
      .then(() => {
        next = undefined
        return sync()
      })
    return next
  }

  return { sync }
}

/** Disconnects index blocks until the index's tip is on the node's best chain. */
async function walkBackToFork(node: Node, index: Index, nodeHeight: number): Promise<void> {
  for (let tip = index.tip; tip; tip = index.tip) {
    if (tip.height <= nodeHeight) {
      const hash = await node.call<string>('getblockhash', [tip.height]).catch((error: unknown) => {
        // -8: height out of range, the node's chain got shorter since it told us its tip.
        if (error instanceof NodeError && error.code === -8) return undefined
        throw error
      })
      if (hash === tip.hash) return
    }
    index.disconnectTip()
  }
}

/** False for a block the node no longer has on its best chain (-5 not found, -8 out of range); throws else. */
function gone(...answers: unknown[]): false {
  for (const answer of answers) {
    if (answer instanceof NodeError && answer.code !== -5 && answer.code !== -8) throw answer
  }
  return false
}

function checkGenesis(hash: string, prefix: string | undefined): void {
  if (prefix && !hash.startsWith(prefix)) {
    throw new Error(`the node serves the chain bip122:${hash.slice(0, 32)}, not bip122:${prefix}`)
  }
}
