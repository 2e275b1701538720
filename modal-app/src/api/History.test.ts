import { type Database, History, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { closedPort } from '@airlock/api/testing'
import { createWalletClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path: the devnet runs the modal's build, so a package dependency would be a cycle.
import { Accounts, Anvil } from '../../../devnet/src/index.ts'
import * as Api from './Api.ts'

// The real service and its indexer over a real anvil, in this process, on free loopback ports.
let db: Database.Database
let running: Service.Running
let anvil: Anvil.Instance
let indexer: ReturnType<typeof History.Indexer.start>
const chainId = 'eip155:41777'
const [alice, bob] = Accounts.all() as [Accounts.Account, Accounts.Account]
const sent: string[] = []

beforeAll(async () => {
  anvil = await Anvil.start({ port: await closedPort(), chainId: 41_777 })
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const config = {
    apiUrl: 'http://127.0.0.1:0',
    modalOrigin: 'http://127.0.0.1:5174',
    chains: [{ id: chainId, name: 'Test', rpcUrl: anvil.rpcUrl, nativeCurrency: ether }],
  }
  indexer = History.Indexer.start({ db, config, pollMs: 50, log: () => {} })
  running = await Service.listen(Service.create({ db, config }), { apiPort: 0 })
  const wallet = createWalletClient({ account: alice.address, transport: http(anvil.rpcUrl) })
  for (let i = 0; i < 25; i++)
    sent.push(await wallet.sendTransaction({ chain: null, to: bob.address, value: parseEther('0.001') }))
})
afterAll(async () => {
  await running?.stop()
  await indexer?.stop()
  await db?.close()
  await anvil?.stop()
})

const client = (baseUrl = running.apiUrl) => Api.create({ baseUrl, projectId: 'demo' })

describe('the API client’s history', () => {
  it('pages through an account’s transactions with the API’s cursor, each once', async () => {
    const api = client()
    const seen: string[] = []
    // The indexer follows the chain a little behind it: wait until it has all 25, on every page.
    const pages = async () => {
      let count = 0
      let cursor: string | null | undefined
      do {
        const page = await api.history(bob.address, { chainId, cursor })
        count += page.data.length
        cursor = page.next
      } while (cursor)
      return count
    }
    await expect.poll(pages, { timeout: 20_000 }).toBe(sent.length)
    expect((await api.history(bob.address, { chainId })).data).toHaveLength(20)
    let next: string | null | undefined
    do {
      const page = await api.history(bob.address, { chainId, cursor: next })
      expect(page.error).toBeUndefined()
      seen.push(...page.data.map((item) => item.id))
      next = page.next
    } while (next)
    expect(seen.sort()).toEqual([...sent].sort())
    const [first] = (await api.history(bob.address, { chainId })).data
    expect(first?.metadata).toMatchObject({ chain: chainId, operationType: 'receive', status: 'confirmed' })
    expect(first?.transfers[0]).toMatchObject({ direction: 'in', quantity: { numeric: '0.001' } })
  })

  it("says 'Failed to fetch transactions' with an empty list and no cursor when the API fails", async () => {
    const dead = client(`http://127.0.0.1:${await closedPort()}`)
    expect(await dead.history(bob.address, { chainId, cursor: 'abc' })).toEqual({
      data: [],
      next: null,
      error: 'Failed to fetch transactions',
    })
    // A cursor the API did not hand out is refused (400): the same empty page.
    expect((await client().history(bob.address, { chainId, cursor: 'forged' })).error).toBe(
      'Failed to fetch transactions',
    )
  })

  it('asks nothing without an account', async () => {
    expect(await client('http://127.0.0.1:1').history('', { chainId })).toEqual({
      data: [],
      next: null,
      error: "Transactions can't be fetched without an accountAddress",
    })
  })

  it('holds to docs/behaviour.md whichever API answers: only the chain asked for, no spam-only transaction', async () => {
    const item = (id: string, chain: string, spam?: boolean) => ({
      id,
      metadata: {
        minedAt: '2026-11-25T00:00:00.000Z',
        chain,
        operationType: 'receive',
        status: 'confirmed',
        sentFrom: alice.address,
        sentTo: bob.address,
      },
      transfers: [
        spam === undefined
          ? {
              direction: 'in',
              quantity: { numeric: '1' },
              fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: '' } },
            }
          : {
              direction: 'in',
              quantity: { numeric: '1' },
              nft_info: { name: 'Prize', content: { preview: { url: '' } }, flags: { is_spam: spam } },
            },
      ],
    })
    const answer = {
      data: [item('a', chainId), item('b', 'eip155:1'), item('c', chainId, true), item('d', chainId, false)],
      next: null,
    }
    const api = Api.create({
      baseUrl: 'http://127.0.0.1:1',
      projectId: 'demo',
      fetch: async () => Response.json(answer),
    })
    expect((await api.history(bob.address, { chainId })).data.map((entry) => entry.id)).toEqual(['a', 'd'])
  })
})
