import * as S from '@airlock/bridge-protocol/Shape'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as Solana from '../../../../../devnet/src/solana/Solana.ts'
import type * as Config from '../../../Config.ts'
import * as Contract from '../../../contract/index.ts'
import type { Database } from '../../../Database.ts'
import * as Indexer from '../Indexer.ts'
import { engines, historyApp, projectId, type TestDatabase, waitFor } from '../testing.ts'
import { confirmed, sendSol, sendToken, tokenAccount, wallet } from './solanaTesting.ts'

const sol = 1_000_000_000n
let solana: Solana.Instance
let chain: Config.Chain
beforeAll(async () => {
  solana = await Solana.start({ port: 0 })
  chain = {
    id: Solana.caipNetworkId,
    name: 'Solana Devnet',
    rpcUrl: solana.rpcUrl,
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    tokens: [{ address: Solana.usdcMint, name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
  }
})
afterAll(() => solana?.stop())

describe.each(engines())('Solana history on $engine', ({ engine, open }) => {
  let opened: TestDatabase
  let db: Database
  let indexer: Indexer.Indexer
  let app: Awaited<ReturnType<typeof historyApp>>
  const [alice, bob] = [wallet(`${engine} alice`), wallet(`${engine} bob`)]
  const start = () =>
    Indexer.start({ db, lockUrl: opened.lockUrl, config: { chains: [chain] }, pollMs: 100, log: () => {} })

  beforeAll(async () => {
    opened = await open()
    db = opened.db
    indexer = start()
    app = await historyApp(db, [chain])
    const addresses = [alice.address, bob.address] as Parameters<typeof solana.fund>[0][number][]
    const funded = await solana.fund(addresses, {
      lamports: 2n * sol,
      usdc: 50_000_000n,
    })
    await confirmed(solana.rpcUrl, funded)
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

  it("reads a new wallet's funding on its first request, before answering", async () => {
    const [first] = (await page(alice.address)).data
    expect(first?.metadata).toMatchObject({ operationType: 'receive', status: 'confirmed', chain: chain.id })
    expect(moved(first as Contract.HistoryItem)).toEqual([
      ['in', '2', 'SOL'],
      ['in', '50', 'USDC'],
    ])
  })

  it('shows a SOL transfer as sent by the sender (its fee apart) and received by the receiver', async () => {
    await page(bob.address)
    const id = await sendSol(solana.rpcUrl, alice, bob.address, sol / 4n)
    const received = await itemOf(bob.address, id)
    expect(received.metadata).toMatchObject({
      operationType: 'receive',
      status: 'confirmed',
      sentFrom: alice.address,
      sentTo: bob.address,
    })
    expect(moved(received)).toEqual([['in', '0.25', 'SOL']])
    const sent = await itemOf(alice.address, id)
    expect(sent.metadata.operationType).toBe('send')
    expect(moved(sent)).toEqual([
      ['out', '0.25', 'SOL'],
      ['out', '0.000005', 'SOL'],
    ])
  })

  it('shows a USDC transfer to a token account the receiving wallet does not sign for', async () => {
    const [from, to] = await Promise.all(
      [alice, bob].map((owner) => tokenAccount(solana.rpcUrl, owner.address, Solana.usdcMint)),
    )
    const id = await sendToken(solana.rpcUrl, alice, from ?? '', to ?? '', 1_500_000n)
    const received = await itemOf(bob.address, id)
    expect(received.metadata).toMatchObject({ operationType: 'receive', sentFrom: alice.address })
    expect(moved(received)).toEqual([['in', '1.5', 'USDC']])
    const sent = await itemOf(alice.address, id)
    expect(sent.metadata).toMatchObject({ operationType: 'send', sentTo: bob.address })
    expect(moved(sent)).toEqual([
      ['out', '1.5', 'USDC'],
      ['out', '0.000005', 'SOL'],
    ])
  })

  it('shows a failed transaction to its sender only, as failed, with the fee it paid', async () => {
    const id = await sendSol(solana.rpcUrl, alice, bob.address, 1_000n * sol, true)
    const failed = await itemOf(alice.address, id)
    expect(failed.metadata).toMatchObject({ status: 'failed', operationType: 'send' })
    expect(moved(failed)).toEqual([['out', '0.000005', 'SOL']])
    expect((await page(bob.address)).data.map((item) => item.id)).not.toContain(id)
  })

  it('carries on after a restart without writing anything twice', async () => {
    await indexer.stop()
    const carol = wallet(`${engine} carol`)
    const missed = await sendSol(solana.rpcUrl, alice, carol.address, sol / 10n)
    const before = await page(alice.address)
    expect(before.data.map((item) => item.id)).not.toContain(missed)
    indexer = start()
    await itemOf(alice.address, missed)
    const ids = (await page(alice.address)).data.map((item) => item.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual([missed, ...before.data.map((item) => item.id)])
    const [rows] = await db.query<{ n: unknown; distinct: unknown }>(
      `select count(*) as n, count(distinct (address, tx_hash)) as distinct from history_accounts
       where chain_id = $1`,
      [chain.id],
    )
    expect(Number(rows?.n)).toBe(Number(rows?.distinct))
    // Carol was never asked about: she is a party of the transfer, not a followed wallet.
    const followed = await db.query('select address from history_watched where owner = $1', [carol.address])
    expect(followed).toEqual([])
  })
})
