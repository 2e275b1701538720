/**
 * A Bitcoin-family block read into the indexer's transactions: each transaction's coins in (the outputs
 * its inputs spend) and out, added up per address (`Deltas.ts`). An address that lost coins paid those
 * that gained them; its change output comes back to it and nets away; what the outputs leave of the inputs
 * is the fee, a transfer of kind `fee` from the spenders (the first inputs' addresses when several pay). A
 * coinbase's outputs come from '' (a mint); value sent to a script without an address (OP_RETURN) goes to
 * '' (a burn). Amounts in satoshis, exact: the esplora feature's decoding, never the node's float coins.
 */
import { type Network, Block as RawBlock } from 'bitcoinjs-lib'
import * as Script from '../../esplora/Script.ts'
import * as EsploraTransaction from '../../esplora/Transaction.ts'
import * as Deltas from '../Deltas.ts'
import type { Block, Transaction, Transfer } from '../Source.ts'

export type Output = { script: string; value: bigint }

/** A block decoded from the node's raw hex (`getblock <hash> 0`), its transactions not yet read. */
export type Decoded = Omit<Block, 'transactions'> & { txs: EsploraTransaction.Decoded[] }

/** @throws when `raw` is not a block bitcoinjs-lib can read */
export function decode(raw: string, height: number): Decoded {
  const block = RawBlock.fromHex(raw)
  return {
    number: height,
    hash: block.getId(),
    parentHash: Buffer.from(block.prevHash ?? new Uint8Array(32))
      .reverse()
      .toString('hex'),
    timestamp: block.timestamp * 1000,
    txs: (block.transactions ?? []).map(EsploraTransaction.decode),
  }
}

/** The coins a block's inputs spend, as `txid:vout` keys (coinbases spend none). */
export function spends(block: Decoded): { txid: string; vout: number }[] {
  return block.txs.flatMap((tx) => tx.vin.filter((input) => !input.isCoinbase))
}

/**
 * The block's transactions, given the outputs its inputs spend.
 * @throws when a spent output is missing from `coins`
 */
export function read(block: Decoded, coins: (txid: string, vout: number) => Output, network: Network): Block {
  const addressOf = (script: string) => Script.toAddress(Buffer.from(script, 'hex'), network) ?? ''
  const transactions = block.txs.map((tx, index): Transaction => {
    const spent = tx.vin.filter((input) => !input.isCoinbase).map((input) => coins(input.txid, input.vout))
    const changes: Deltas.Change[] = [
      ...spent.map((coin) => ({ account: addressOf(coin.script), amount: -coin.value })),
      ...tx.vout.map((output) => ({ account: addressOf(output.script), amount: output.value })),
    ]
    const fee = spent.length === 0 ? 0n : total(spent) - total(tx.vout)
    const payers = fee > 0n ? Deltas.feePayers(changes, fee) : []
    const transfers: Transfer[] = []
    for (const flow of Deltas.pair([...changes, ...payers]))
      transfers.push({ position: transfers.length, kind: 'native', asset: '', ...flow })
    for (const payer of payers)
      transfers.push({
        position: transfers.length,
        kind: 'fee',
        asset: '',
        from: payer.account,
        to: '',
        amount: payer.amount,
      })
    const senders = new Set(spent.map((coin) => addressOf(coin.script)))
    const receivers = tx.vout.map((output) => addressOf(output.script)).filter(Boolean)
    return {
      hash: tx.txid,
      index,
      status: 'confirmed',
      kind: 'send',
      from: spent[0] ? addressOf(spent[0].script) : '',
      to: receivers.find((address) => !senders.has(address)) ?? receivers[0] ?? '',
      transfers,
    }
  })
  const { txs: _, ...header } = block
  return { ...header, transactions }
}

function total(outputs: readonly Output[]): bigint {
  return outputs.reduce((sum, output) => sum + output.value, 0n)
}
