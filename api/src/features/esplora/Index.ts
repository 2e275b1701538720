/**
 * An address index kept in memory: every block from genesis, connected in order and disconnected from the
 * tip on a reorg, plus a view of the node's mempool. Keyed by output script (hex), so every address form
 * of one script is one history. Pure bookkeeping: the {@link Scanner} feeds it from the node.
 *
 * Memory grows with the chain (every output and transaction is kept), which suits a devnet or a small
 * test chain; a public chain wants a real indexer (electrs) instead.
 */
import { type BlockRef, type Coin, type Decoded, feeOf } from './Transaction.ts'

/** A block to connect: its place in the chain and its transactions in block order. */
export type Block = BlockRef & { prevHash: string; txs: readonly Decoded[] }

/** A transaction with what the index knows of it: the coins its inputs spend, its fee, its block. */
export type Entry = {
  tx: Decoded
  prevouts: (Coin | undefined)[]
  fee: bigint | undefined
  /** Undefined while in the mempool. */
  block: BlockRef | undefined
}

/** Esplora's `chain_stats` / `mempool_stats`, in satoshis. */
export type Stats = {
  funded_txo_count: number
  funded_txo_sum: bigint
  spent_txo_count: number
  spent_txo_sum: bigint
  tx_count: number
}

/** An unspent output with where it was created. */
export type Utxo = Coin & { block: BlockRef | undefined }

const outpoint = (txid: string, vout: number) => `${txid}:${vout}`

/** What one layer (the chain, or the mempool on top of it) records. */
type Layer = {
  entries: Map<string, Entry>
  /** Every output the layer created, spent or not. */
  outputs: Map<string, Coin>
  /** Outpoint → txid of the layer's transaction that spends it. */
  spentBy: Map<string, string>
  /** Script → txids touching it, oldest first. */
  history: Map<string, string[]>
}

const emptyLayer = (): Layer => ({
  entries: new Map(),
  outputs: new Map(),
  spentBy: new Map(),
  history: new Map(),
})

/** Scripts a transaction pays to or spends from, each once. */
function scriptsOf(entry: Entry): Set<string> {
  const scripts = new Set(entry.tx.vout.map((output) => output.script))
  for (const coin of entry.prevouts) if (coin) scripts.add(coin.script)
  return scripts
}

function record(layer: Layer, entry: Entry): void {
  const { tx } = entry
  tx.vin.forEach((input, i) => {
    if (entry.prevouts[i]) layer.spentBy.set(outpoint(input.txid, input.vout), tx.txid)
  })
  tx.vout.forEach((output, vout) => {
    layer.outputs.set(outpoint(tx.txid, vout), { txid: tx.txid, vout, ...output })
  })
  for (const script of scriptsOf(entry)) {
    const list = layer.history.get(script)
    if (list) list.push(tx.txid)
    else layer.history.set(script, [tx.txid])
  }
  layer.entries.set(tx.txid, entry)
}

export class Index {
  readonly #blocks: (BlockRef & { prevHash: string; txids: string[] })[] = []
  readonly #chain = emptyLayer()
  /** The node's mempool as last seen, in the order first seen. */
  readonly #mempool = new Map<string, Decoded>()
  #pool = emptyLayer()

  /** The last connected block, undefined before genesis. */
  get tip(): BlockRef | undefined {
    return this.#blocks.at(-1)
  }

  blockAt(height: number): BlockRef | undefined {
    return this.#blocks[height]
  }

  /** Appends `block`; it must extend the tip (genesis first). */
  connect(block: Block): void {
    const tip = this.#blocks.at(-1)
    const expected = tip ? tip.hash : '0'.repeat(64)
    if (block.height !== (tip ? tip.height + 1 : 0) || block.prevHash !== expected) {
      throw new Error(`block ${block.hash} at ${block.height} does not extend the tip ${expected}`)
    }
    const ref: BlockRef = { height: block.height, hash: block.hash, time: block.time }
    for (const tx of block.txs) {
      const prevouts = tx.vin.map((input) =>
        input.isCoinbase ? undefined : this.#chain.outputs.get(outpoint(input.txid, input.vout)),
      )
      record(this.#chain, { tx, prevouts, fee: feeOf(tx, prevouts), block: ref })
      this.#mempool.delete(tx.txid)
    }
    this.#blocks.push({ ...ref, prevHash: block.prevHash, txids: block.txs.map((tx) => tx.txid) })
    this.#rebuildPool()
  }

  /** Removes the tip block and everything it did; its transactions come back with the node's mempool. */
  disconnectTip(): BlockRef | undefined {
    const block = this.#blocks.pop()
    if (!block) return undefined
    const chain = this.#chain
    for (const txid of block.txids.toReversed()) {
      const entry = chain.entries.get(txid)
      if (!entry) continue
      for (const input of entry.tx.vin) chain.spentBy.delete(outpoint(input.txid, input.vout))
      for (const vout of entry.tx.vout.keys()) chain.outputs.delete(outpoint(txid, vout))
      for (const script of scriptsOf(entry)) {
        const list = chain.history.get(script)
        // Blocks leave in reverse order, so this block's transactions are the last of each history.
        if (list?.at(-1) === txid) list.pop()
        if (list?.length === 0) chain.history.delete(script)
      }
      chain.entries.delete(txid)
    }
    this.#rebuildPool()
    return block
  }

  /** Txids of the mempool as the index knows it. */
  mempoolTxids(): Set<string> {
    return new Set(this.#mempool.keys())
  }

  /** Replaces the mempool: keeps those of `keep` it has, then appends `added` (new, first seen now). */
  updateMempool(keep: ReadonlySet<string>, added: readonly Decoded[]): void {
    for (const txid of this.#mempool.keys()) if (!keep.has(txid)) this.#mempool.delete(txid)
    for (const tx of added) if (!this.#chain.entries.has(tx.txid)) this.#mempool.set(tx.txid, tx)
    this.#rebuildPool()
  }

  /** True while a mempool transaction spends a coin the index has not seen (its block not scanned yet). */
  hasUnknownPrevouts(): boolean {
    for (const entry of this.#pool.entries.values()) if (entry.fee === undefined) return true
    return false
  }

  /** The transaction, confirmed or in the mempool. */
  entry(txid: string): Entry | undefined {
    return this.#chain.entries.get(txid) ?? this.#pool.entries.get(txid)
  }

  stats(script: string): { chain: Stats; mempool: Stats } {
    return { chain: statsOf(this.#chain, script), mempool: statsOf(this.#pool, script) }
  }

  /** Confirmed satoshis, and the mempool's net change to them (negative while spends are pending). */
  balance(script: string): { confirmed: bigint; unconfirmed: bigint } {
    const { chain, mempool } = this.stats(script)
    return {
      confirmed: chain.funded_txo_sum - chain.spent_txo_sum,
      unconfirmed: mempool.funded_txo_sum - mempool.spent_txo_sum,
    }
  }

  /** Unspent outputs of `script`, newest first: the mempool's, then the chain's not spent in the mempool. */
  utxos(script: string): Utxo[] {
    const unspent = (layer: Layer, spentElsewhere: Map<string, string>) =>
      (layer.history.get(script) ?? []).toReversed().flatMap((txid) => {
        const entry = layer.entries.get(txid)
        if (!entry) return []
        return entry.tx.vout.flatMap((output, vout) => {
          const key = outpoint(txid, vout)
          if (output.script !== script || layer.spentBy.has(key) || spentElsewhere.has(key)) return []
          return [{ txid, vout, ...output, block: entry.block }]
        })
      })
    return [...unspent(this.#pool, new Map()), ...unspent(this.#chain, this.#pool.spentBy)]
  }

  /** Transactions touching `script`, newest first. */
  history(script: string): { mempool: Entry[]; chain: Entry[] } {
    const entries = (layer: Layer) =>
      (layer.history.get(script) ?? []).toReversed().flatMap((txid) => layer.entries.get(txid) ?? [])
    return { mempool: entries(this.#pool), chain: entries(this.#chain) }
  }

  /** Derives the mempool layer again: its coins may spend the chain's or each other's, in any order. */
  #rebuildPool(): void {
    const pool = emptyLayer()
    const created = new Map<string, Coin>()
    for (const tx of this.#mempool.values()) {
      for (const [vout, output] of tx.vout.entries()) {
        created.set(outpoint(tx.txid, vout), { txid: tx.txid, vout, ...output })
      }
    }
    for (const tx of this.#mempool.values()) {
      const prevouts = tx.vin.map((input) => {
        const key = outpoint(input.txid, input.vout)
        return this.#chain.outputs.get(key) ?? created.get(key)
      })
      record(pool, { tx, prevouts, fee: feeOf(tx, prevouts), block: undefined })
    }
    this.#pool = pool
  }
}

function statsOf(layer: Layer, script: string): Stats {
  const stats: Stats = {
    funded_txo_count: 0,
    funded_txo_sum: 0n,
    spent_txo_count: 0,
    spent_txo_sum: 0n,
    tx_count: 0,
  }
  for (const txid of layer.history.get(script) ?? []) {
    const entry = layer.entries.get(txid)
    if (!entry) continue
    stats.tx_count += 1
    for (const output of entry.tx.vout) {
      if (output.script !== script) continue
      stats.funded_txo_count += 1
      stats.funded_txo_sum += output.value
    }
    for (const coin of entry.prevouts) {
      if (coin?.script !== script) continue
      stats.spent_txo_count += 1
      stats.spent_txo_sum += coin.value
    }
  }
  return stats
}
