import { describe, expect, it } from 'vitest'
import { type Block, Index } from './Index.ts'
import type { Decoded } from './Transaction.ts'

const alice = '0014'.padEnd(44, 'a')
const bob = '0014'.padEnd(44, 'b')
const zero = '0'.repeat(64)

/** A transaction spending `inputs` (outpoints) and paying `outputs`; a coinbase when it spends nothing. */
function tx(txid: string, inputs: [string, number][], outputs: [string, bigint][]): Decoded {
  const coinbase = inputs.length === 0
  return {
    txid: txid.padEnd(64, '0'),
    version: 2,
    locktime: 0,
    size: 200,
    weight: 800,
    vin: (coinbase ? [[zero, 0xffffffff] as const] : inputs).map(([prev, vout]) => ({
      txid: prev.padEnd(64, '0'),
      vout,
      scriptsig: '',
      witness: [],
      sequence: 0xffffffff,
      isCoinbase: coinbase,
    })),
    vout: outputs.map(([script, value]) => ({ script, value })),
  }
}

/** Block `height` on top of `index`'s tip, holding `txs`. */
function block(index: Index, txs: Decoded[], hash = `b${index.tip ? index.tip.height + 1 : 0}`): Block {
  const tip = index.tip
  return {
    height: tip ? tip.height + 1 : 0,
    hash: hash.padEnd(64, '0'),
    time: 1_000,
    prevHash: tip?.hash ?? zero,
    txs,
  }
}

describe('Index', () => {
  it('counts coins funded and spent, and gives them back when the spending block is disconnected', () => {
    const index = new Index()
    index.connect(block(index, [tx('c0', [], [[alice, 50n]])]))
    index.connect(
      block(index, [
        tx('c1', [], [[bob, 50n]]),
        tx(
          's1',
          [['c0', 0]],
          [
            [bob, 30n],
            [alice, 19n],
          ],
        ),
      ]),
    )
    expect(index.stats(alice).chain).toEqual({
      funded_txo_count: 2,
      funded_txo_sum: 69n,
      spent_txo_count: 1,
      spent_txo_sum: 50n,
      tx_count: 2,
    })
    expect(index.entry('s1'.padEnd(64, '0'))?.fee).toBe(1n)
    expect(index.utxos(alice).map((u) => [u.txid.slice(0, 2), u.vout])).toEqual([['s1', 1]])
    expect(index.history(bob).chain.map((e) => e.tx.txid.slice(0, 2))).toEqual(['s1', 'c1'])

    expect(index.disconnectTip()?.height).toBe(1)
    expect(index.stats(alice).chain).toMatchObject({ funded_txo_sum: 50n, spent_txo_count: 0, tx_count: 1 })
    expect(index.utxos(alice).map((u) => u.txid.slice(0, 2))).toEqual(['c0'])
    expect(index.history(bob).chain).toEqual([])
    expect(index.entry('s1'.padEnd(64, '0'))).toBeUndefined()
  })

  it('refuses a block that does not extend its tip', () => {
    const index = new Index()
    index.connect(block(index, [tx('c0', [], [[alice, 50n]])]))
    const stray = { ...block(index, [tx('c1', [], [[bob, 50n]])]), prevHash: 'f'.repeat(64) }
    expect(() => index.connect(stray)).toThrow(/does not extend the tip/)
    expect(index.tip?.height).toBe(0)
  })

  it('layers the mempool over the chain: chains of unconfirmed spends, pending spends hiding coins', () => {
    const index = new Index()
    index.connect(block(index, [tx('c0', [], [[alice, 50n]])]))
    const parent = tx('p1', [['c0', 0]], [[bob, 40n]])
    const child = tx('p2', [['p1', 0]], [[alice, 35n]])
    // The child first: the order the node lists its mempool in is not the order to resolve coins in.
    index.updateMempool(new Set([parent.txid, child.txid]), [child, parent])
    expect(index.hasUnknownPrevouts()).toBe(false)
    expect(index.entry(child.txid)?.fee).toBe(5n)
    expect(index.stats(bob).mempool).toMatchObject({ funded_txo_sum: 40n, spent_txo_sum: 40n, tx_count: 2 })
    expect(index.balance(alice)).toEqual({ confirmed: 50n, unconfirmed: -15n })
    expect(index.utxos(alice).map((u) => [u.txid.slice(0, 2), u.block])).toEqual([['p2', undefined]])
    expect(index.utxos(bob)).toEqual([])

    // Confirmed: out of the mempool layer, into the chain's.
    index.connect(block(index, [tx('c1', [], [[bob, 50n]]), parent, child]))
    index.updateMempool(new Set(), [])
    expect(index.balance(alice)).toEqual({ confirmed: 35n, unconfirmed: 0n })
    expect(index.entry(child.txid)?.block?.height).toBe(1)
  })

  it('notices a mempool spend of a coin it has not seen', () => {
    const index = new Index()
    index.connect(block(index, [tx('c0', [], [[alice, 50n]])]))
    index.updateMempool(new Set(['x']), [tx('x', [['unseen', 0]], [[bob, 1n]])])
    expect(index.hasUnknownPrevouts()).toBe(true)
  })
})
