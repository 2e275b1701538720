import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import * as Indexer from './Indexer.ts'
import {
  accounts,
  caughtUp,
  engines,
  rpc,
  rpcProxy,
  sharedPostgres,
  startChain,
  type TestChain,
  type TestDatabase,
  waitFor,
} from './testing.ts'

const [alice] = accounts as [Address]
let serial = 0
/** An address no test has used yet. */
const fresh = () => `0x${(0xa11ce000 + ++serial).toString(16).padStart(40, '0')}` as Address

async function transfersTo(db: Database, chainId: string, to: Address): Promise<string[]> {
  const rows = await db.query<{ tx_hash: string }>(
    'select tx_hash from history_transfers where chain_id = $1 and recipient = $2 order by block_number',
    [chainId, to.toLowerCase()],
  )
  return rows.map((row) => row.tx_hash)
}

describe.each(engines())('the history indexer on $engine', ({ open }) => {
  let db: Database
  let opened: TestDatabase
  let chain: TestChain
  const logs: string[] = []
  const start = (options: Partial<Indexer.IndexerOptions> = {}) =>
    Indexer.start({
      db,
      lockUrl: opened.lockUrl,
      config: { chains: [chain.chain] },
      pollMs: 50,
      log: (line) => logs.push(line),
      ...options,
    })

  beforeAll(async () => {
    chain = await startChain(41_001)
    opened = await open()
    db = opened.db
  })
  afterAll(async () => {
    await opened?.close()
    await chain?.stop()
  })

  it('resumes after a restart from its last block, without gaps or duplicates', async () => {
    const to = fresh()
    const first = start()
    const before: string[] = []
    for (let i = 0; i < 3; i++) before.push(await chain.send(alice, to))
    await caughtUp(db, chain)
    await first.stop()
    const after: string[] = []
    for (let i = 0; i < 4; i++) after.push(await chain.send(alice, to))
    const second = start()
    await caughtUp(db, chain)
    await second.stop()
    // anvil mines one block per transaction: the second indexer read only the four new ones.
    expect(second.status()).toEqual([
      { chainId: chain.chain.id, writing: false, indexed: 4, failing: undefined },
    ])
    expect((await transfersTo(db, chain.chain.id, to)).sort()).toEqual([...before, ...after].sort())
    const [blocks] = await db.query<{ kept: unknown; low: unknown; high: unknown }>(
      'select count(*) as kept, min(number) as low, max(number) as high from history_blocks where chain_id = $1',
      [chain.chain.id],
    )
    expect(Number(blocks?.kept)).toBe(Number(blocks?.high) - Number(blocks?.low) + 1)
  })

  it('drops an orphaned transfer when the chain is replaced at the same height, and indexes the new one', async () => {
    const indexer = start()
    await caughtUp(db, chain)
    const [orphan, winner] = [fresh(), fresh()]
    const snapshot = await chain.client.test.snapshot()
    await chain.send(alice, orphan)
    await caughtUp(db, chain)
    expect(await transfersTo(db, chain.chain.id, orphan)).toHaveLength(1)
    await chain.client.test.revert({ id: snapshot })
    const replacement = await chain.send(alice, winner)
    await caughtUp(db, chain)
    await indexer.stop()
    expect(await transfersTo(db, chain.chain.id, orphan)).toEqual([])
    expect(await transfersTo(db, chain.chain.id, winner)).toEqual([replacement])
    const [accounts] = await db.query<{ n: unknown }>(
      'select count(*) as n from history_accounts where chain_id = $1 and address = $2',
      [chain.chain.id, orphan.toLowerCase()],
    )
    expect(Number(accounts?.n)).toBe(0)
  })

  it('follows a reorg to a shorter chain (anvil_reorg of two blocks, then a revert)', async () => {
    const indexer = start()
    const [a, b] = [fresh(), fresh()]
    const snapshot = await chain.client.test.snapshot()
    await chain.send(alice, a)
    await chain.send(alice, a)
    await caughtUp(db, chain)
    expect(await transfersTo(db, chain.chain.id, a)).toHaveLength(2)
    // Replaces the newest two blocks with two empty ones: same height, new hashes.
    await rpc(chain.anvil.rpcUrl, 'anvil_reorg', [2, []])
    await caughtUp(db, chain)
    expect(await transfersTo(db, chain.chain.id, a)).toEqual([])
    await chain.send(alice, b)
    await caughtUp(db, chain)
    await chain.client.test.revert({ id: snapshot })
    await caughtUp(db, chain)
    await indexer.stop()
    expect(await transfersTo(db, chain.chain.id, b)).toEqual([])
  })

  it('waits out an RPC that went away, then carries on without duplicates', async () => {
    const proxy = await rpcProxy(chain.anvil.rpcUrl)
    const indexer = start({ config: { chains: [{ ...chain.chain, rpcUrl: proxy.url }] } })
    await caughtUp(db, chain)
    await proxy.down()
    const to = fresh()
    const sent = [await chain.send(alice, to), await chain.send(alice, to)]
    const failing = await waitFor(async () => indexer.status()[0]?.failing, 'the outage to be noticed')
    expect(failing).toContain('did not answer')
    await proxy.up()
    await caughtUp(db, chain)
    await indexer.stop()
    expect((await transfersTo(db, chain.chain.id, to)).sort()).toEqual(sent.sort())
    expect(indexer.status()[0]?.failing).toBeUndefined()
    expect(logs.some((line) => line.includes('indexing again after'))).toBe(true)
  })
})

describe('two replicas on one PostgreSQL', () => {
  const reason = process.env.AIRLOCK_TEST_DATABASE_URL
    ? ''
    : ' (skipped: needs AIRLOCK_TEST_DATABASE_URL; PGlite is one process, so one session)'

  it.skipIf(!process.env.AIRLOCK_TEST_DATABASE_URL)(
    `index each block once, and the other takes over when the writer stops${reason}`,
    async () => {
      const shared = await sharedPostgres()
      if (!shared) return
      const chain = await startChain(41_002)
      const [one, two] = [await shared.open(), await shared.open()]
      try {
        const replica = (db: Database) =>
          Indexer.start({
            db,
            config: { chains: [chain.chain] },
            lockUrl: shared.url,
            pollMs: 50,
            lockRetryMs: 100,
            log: () => {},
          })
        const replicas = [replica(one), replica(two)]
        const to = fresh()
        const sent: string[] = []
        for (let i = 0; i < 10; i++) sent.push(await chain.send(alice, to))
        await caughtUp(one, chain)
        const writers = replicas.filter((indexer) => indexer.status()[0]?.writing)
        expect(writers).toHaveLength(1)
        const blocks = async () => Number(await chain.client.getBlockNumber()) + 1
        const indexed = () => replicas.reduce((sum, indexer) => sum + (indexer.status()[0]?.indexed ?? 0), 0)
        expect(indexed()).toBe(await blocks())

        const [writer] = writers
        await writer?.stop()
        const standby = replicas.find((indexer) => indexer !== writer)
        for (let i = 0; i < 5; i++) sent.push(await chain.send(alice, to))
        await caughtUp(two, chain)
        expect(standby?.status()[0]?.writing).toBe(true)
        expect(writer?.status()[0]?.writing).toBe(false)
        expect(indexed()).toBe(await blocks())
        expect((await transfersTo(one, chain.chain.id, to)).sort()).toEqual(sent.sort())
        await standby?.stop()
      } finally {
        await one.close()
        await two.close()
        await chain.stop()
        await shared.drop()
      }
    },
  )
})
