import * as S from '@airlock/bridge-protocol/Shape'
import { payments } from 'bitcoinjs-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as Litecoind from '../../../../../devnet/src/bitcoin/Litecoind.ts'
import * as LitecoindBinary from '../../../../../devnet/src/bitcoin/LitecoindBinary.ts'
import * as Regtest from '../../../../../devnet/src/bitcoin/Regtest.ts'
import type * as Config from '../../../Config.ts'
import * as Contract from '../../../contract/index.ts'
import type { Database } from '../../../Database.ts'
import * as Indexer from '../Indexer.ts'
import * as Store from '../Store.ts'
import { engines, historyApp, projectId, type TestDatabase, waitFor } from '../testing.ts'

const hasLitecoind = LitecoindBinary.find() !== undefined
const skipped = hasLitecoind ? '' : ' (skipped: no litecoind; apt-get install -y litecoind)'
let serial = 0
/** A P2WPKH address no test has used: a key hash is all an output needs, nobody need hold its key. */
const stranger = () =>
  payments.p2wpkh({ hash: Buffer.alloc(20, ++serial), network: Regtest.network }).address ?? ''

let node: Litecoind.Instance
let chain: Config.Chain
beforeAll(async () => {
  if (!hasLitecoind) return
  node = await Litecoind.start({ rpcPort: 0, p2pPort: 0, mineEveryMs: 0 })
  chain = {
    id: node.caipNetworkId,
    name: 'Bitcoin Devnet',
    rpcUrl: node.rpcUrl,
    nativeCurrency: { name: 'Regtest Litecoin', symbol: 'rLTC', decimals: 8 },
  }
})
afterAll(() => node?.stop())

/** Pays `to` from `from`'s coins only (change back to `from`, 0.0001 fee); resolves the txid, unmined. */
async function pay(from: string, to: string, amount: number): Promise<string> {
  const [coin] = await node.rpc<{ txid: string; vout: number; amount: number }[]>('listunspent', [
    1,
    9_999_999,
    [from],
  ])
  if (!coin) throw new Error(`${from} has no confirmed coin`)
  const change = Math.round((coin.amount - amount - 0.0001) * 1e8) / 1e8
  const raw = await node.rpc<string>('createrawtransaction', [
    [{ txid: coin.txid, vout: coin.vout }],
    [{ [to]: amount }, { [from]: change }],
  ])
  const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', [raw])
  return node.rpc<string>('sendrawtransaction', [signed.hex])
}

describe.each(engines())(`Bitcoin-family history on $engine${skipped}`, ({ engine, open }) => {
  let opened: TestDatabase
  let db: Database
  let indexer: Indexer.Indexer
  let app: Awaited<ReturnType<typeof historyApp>>
  let alice: string
  const start = () =>
    Indexer.start({ db, lockUrl: opened.lockUrl, config: { chains: [chain] }, pollMs: 100, log: () => {} })

  beforeAll(async () => {
    if (!hasLitecoind) return
    opened = await open()
    db = opened.db
    indexer = start()
    app = await historyApp(db, [chain])
    alice = await node.rpc<string>('getnewaddress', [`alice ${engine}`, 'bech32'])
    await node.fund(alice, 2)
    await node.mine(1)
  })
  afterAll(async () => {
    await indexer?.stop()
    await opened?.close()
  })

  const page = async (account: string) => {
    const response = await app.request(`/v1/account/${account}/history?projectId=${projectId}`)
    const parsed = S.parse(Contract.historyAnswer, await response.json())
    if (!parsed.ok) throw new Error(parsed.message)
    return parsed.value
  }
  const itemOf = (account: string, id: string) =>
    waitFor(async () => (await page(account)).data.find((item) => item.id === id), `${id} for ${account}`)
  const moved = (item: Contract.HistoryItem) =>
    item.transfers.map((t) => [t.direction, t.quantity.numeric, t.fungible_info?.symbol])
  const caughtUp = () =>
    waitFor(async () => {
      const [height, at] = await Promise.all([node.rpc<number>('getblockcount'), Store.cursor(db, chain.id)])
      return at?.height === height && at.hash === (await node.rpc<string>('getblockhash', [height]))
    }, 'the index to reach the tip')

  it.skipIf(!hasLitecoind)(
    'shows a send to both sides once mined: the amount, and the fee to the sender',
    async () => {
      const bob = stranger()
      const txid = await pay(alice, bob, 0.5)
      await node.mine(1)
      const received = await itemOf(bob, txid)
      expect(received.metadata).toMatchObject({
        operationType: 'receive',
        status: 'confirmed',
        chain: chain.id,
        sentFrom: alice,
        sentTo: bob,
      })
      expect(moved(received)).toEqual([['in', '0.5', 'rLTC']])
      const sent = await itemOf(alice, txid)
      expect(sent.metadata.operationType).toBe('send')
      expect(moved(sent)).toEqual([
        ['out', '0.5', 'rLTC'],
        ['out', '0.0001', 'rLTC'],
      ])
      // Uppercase is the same bech32 address.
      expect((await page(bob.toUpperCase())).data.map((item) => item.id)).toEqual([txid])
    },
  )

  it.skipIf(!hasLitecoind)(
    'drops a send whose block a reorg replaced, and shows it again once mined anew',
    async () => {
      const carol = stranger()
      const txid = await pay(alice, carol, 0.25)
      const [orphan] = await node.mine(1)
      await itemOf(carol, txid)
      await node.rpc('invalidateblock', [orphan])
      // The replacement holds only its coinbase: the payment is back in the mempool, unconfirmed.
      const miner = await node.rpc<string>('getnewaddress', [])
      await node.rpc('generateblock', [miner, []])
      await caughtUp()
      expect((await page(carol)).data).toEqual([])
      const [again] = await node.mine(1)
      const item = await itemOf(carol, txid)
      const [row] = await db.query<{ block_number: unknown }>(
        'select block_number from history_transactions where chain_id = $1 and hash = $2',
        [chain.id, txid],
      )
      const header = await node.rpc<{ height: number }>('getblockheader', [again])
      expect(Number(row?.block_number)).toBe(header.height)
      expect(moved(item)).toEqual([['in', '0.25', 'rLTC']])
    },
  )

  it.skipIf(!hasLitecoind)('carries on after a restart without writing anything twice', async () => {
    await indexer.stop()
    const dave = stranger()
    const missed = await pay(alice, dave, 0.1)
    await node.mine(2)
    indexer = start()
    await itemOf(dave, missed)
    await caughtUp()
    const [rows] = await db.query<{ n: unknown; distinct: unknown }>(
      `select count(*) as n, count(distinct (chain_id, tx_hash, position)) as distinct from history_transfers`,
    )
    expect(Number(rows?.n)).toBe(Number(rows?.distinct))
    const ids = (await page(alice)).data.map((item) => item.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids[0]).toBe(missed)
  })
})
