import * as S from '@airlock/bridge-protocol/Shape'
import {
  type Abi,
  type Address,
  createWalletClient,
  erc20Abi,
  type Hash,
  http,
  parseEther,
  parseUnits,
  publicActions,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Devnet, testTokenAddress } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { ether } from '../../internal/testApi.ts'
import * as Prices from '../balances/Prices.ts'
import * as History from './index.ts'
import { historyMessages } from './routes.ts'
import { testNfts } from './testContracts.ts'
import { accounts, engines, historyApp, projectId, type TestDatabase, waitFor } from './testing.ts'

let serial = 0
/** An address no test has used yet, checksummed as a wallet would send it. */
const fresh = () => `0x${(0xb0b0000 + ++serial).toString(16).padStart(40, '0')}` as Address
const token = {
  address: testTokenAddress,
  name: 'Airlock Test Token',
  symbol: 'ALT',
  decimals: 18,
  iconUrl: 'https://icons.example/alt.png',
}

describe.each(engines())('GET /v1/account/{account}/history on $engine', ({ open }) => {
  let devnet: Devnet.Instance
  let opened: TestDatabase
  let db: Database
  let indexer: History.Indexer.Indexer
  let app: Awaited<ReturnType<typeof historyApp>>
  let chains: Config.Chain[]

  beforeAll(async () => {
    devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
    chains = devnet.chains.map((chain) => ({
      id: chain.caipNetworkId,
      name: chain.chain.name,
      rpcUrl: chain.rpcUrl,
      nativeCurrency: ether,
      tokens: [token],
    }))
    opened = await open()
    db = opened.db
    await Prices.set(db, [
      {
        chainId: 'eip155:31337',
        address: Prices.native,
        currency: 'usd',
        price: 3000,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: 'https://icons.example/eth.png',
      },
    ])
    indexer = History.Indexer.start({
      db,
      lockUrl: opened.lockUrl,
      config: { chains },
      pollMs: 100,
      log: () => {},
    })
    app = await historyApp(db, chains, Prices.fromDatabase(db))
  })
  afterAll(async () => {
    await indexer?.stop()
    await opened?.close()
    await devnet?.stop()
  })

  const wallet = (chain = 0) =>
    createWalletClient({ transport: http(devnet.chains[chain]?.rpcUrl), pollingInterval: 20 }).extend(
      publicActions,
    )
  const mined = async (hash: Hash, chain = 0) => {
    await wallet(chain).waitForTransactionReceipt({ hash })
    return hash
  }
  const sendEth = (from: Address, to: Address, value = parseEther('1'), chain = 0) =>
    wallet(chain)
      .sendTransaction({ account: from, to, value, chain: null })
      .then((hash) => mined(hash, chain))
  const sendAlt = (from: Address, to: Address, amount: bigint, options: { gas?: bigint } = {}) =>
    wallet()
      .writeContract({
        account: from,
        address: testTokenAddress,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, amount],
        chain: null,
        ...options,
      })
      .then((hash) => mined(hash))
  const history = async (account: string, query = '') => {
    const response = await app.request(`/v1/account/${account}/history?projectId=${projectId}${query}`)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const page = async (account: string, query = '') => {
    const { status, body } = await history(account, query)
    expect(status, JSON.stringify(body)).toBe(200)
    const parsed = S.parse(Contract.historyAnswer, body)
    if (!parsed.ok) throw new Error(parsed.message)
    return parsed.value
  }
  const itemsOf = (account: string, count: number, query = '') =>
    waitFor(async () => {
      const answer = await page(account, query)
      return answer.data.length >= count && answer
    }, `${count} items of ${account}`)

  it('shows a native and an ERC-20 transfer to the sender as sent and to the receiver as received', async () => {
    const sender = accounts[2] as Address
    const receiver = fresh()
    const native = await sendEth(sender, receiver)
    const tokens = await sendAlt(sender, receiver, parseUnits('5', 18))
    const received = await itemsOf(receiver, 2)
    expect(received.next).toBeNull()
    expect(received.data.map((item) => [item.id, item.metadata.operationType])).toEqual([
      [tokens, 'receive'],
      [native, 'receive'],
    ])
    const [alt, eth] = received.data
    expect(alt?.metadata).toMatchObject({
      chain: 'eip155:31337',
      status: 'confirmed',
      sentFrom: sender.toLowerCase(),
      sentTo: testTokenAddress.toLowerCase(),
    })
    expect(Date.parse(alt?.metadata.minedAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
    expect(alt?.transfers).toEqual([
      {
        fungible_info: { name: token.name, symbol: 'ALT', icon: { url: token.iconUrl } },
        direction: 'in',
        quantity: { numeric: '5' },
      },
    ])
    expect(eth?.transfers).toEqual([
      {
        fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: 'https://icons.example/eth.png' } },
        direction: 'in',
        quantity: { numeric: '1' },
        price: 3000,
        value: 3000,
      },
    ])
    // Chain B's blocks run ahead in time (anvil gives each block its own second): keep chain A's.
    const sent = await page(sender, '&chainId=eip155:31337')
    expect(
      sent.data
        .slice(0, 2)
        .map((item) => [item.id, item.metadata.operationType, item.transfers[0]?.direction]),
    ).toEqual([
      [tokens, 'send', 'out'],
      [native, 'send', 'out'],
    ])
  })

  it('pages through 55 items with a cursor: complete, newest first, none twice', async () => {
    const account = fresh()
    const sent: Hash[] = []
    for (let i = 0; i < 55; i++) sent.push(await sendEth(accounts[3] as Address, account, 1n))
    await itemsOf(account, 20)
    await waitFor(
      async () =>
        (await db.query('select 1 from history_transactions where hash = $1', [sent.at(-1)])).length > 0,
    )
    const seen: string[] = []
    const sizes: number[] = []
    let cursor: string | null = null
    do {
      const answer: Contract.HistoryAnswer = await page(account, cursor ? `&cursor=${cursor}` : '')
      sizes.push(answer.data.length)
      seen.push(...answer.data.map((item) => item.id))
      cursor = answer.next
    } while (cursor)
    expect(sizes).toEqual([20, 20, 15])
    expect(seen).toEqual([...sent].reverse())
  })

  it('refuses a tampered, truncated or borrowed cursor with 400', async () => {
    const account = accounts[3] as Address
    const { next } = await page(account)
    if (!next) throw new Error('expected a second page')
    expect((await history(account, `&cursor=${next}`)).status).toBe(200)
    const flipped = next.slice(0, 12) + (next[12] === 'A' ? 'B' : 'A') + next.slice(13)
    for (const bad of [flipped, next.slice(0, -3), `${next}AAAA`, 'AAAAAAAAAAAAAAAAAAAAAA', 'not!base64']) {
      const { status, body } = await history(account, `&cursor=${encodeURIComponent(bad)}`)
      expect(status, bad).toBe(400)
      expect(body.message).toMatch(/cursor/i)
    }
    // The cursor of one listing does not continue another: another account, or another chain filter.
    expect((await history(accounts[2] as Address, `&cursor=${next}`)).body.message).toBe(
      historyMessages.invalidCursor,
    )
    expect((await history(account, `&cursor=${next}&chainId=eip155:31337`)).status).toBe(400)
  })

  it('keeps one chain with chainId, and refuses a chain the API does not serve', async () => {
    const account = fresh()
    const onA = await sendEth(accounts[4] as Address, account, 1n, 0)
    const onB = await sendEth(accounts[4] as Address, account, 1n, 1)
    await itemsOf(account, 2)
    expect((await page(account, '&chainId=eip155:31337')).data.map((item) => item.id)).toEqual([onA])
    const b = await page(account, '&chainId=eip155:31338')
    expect(b.data.map((item) => [item.id, item.metadata.chain])).toEqual([[onB, 'eip155:31338']])
    // Chain B has no price: its items carry none.
    expect(b.data[0]?.transfers[0]).not.toHaveProperty('price')
    const { status, body } = await history(account, '&chainId=eip155:1')
    expect([status, body.message]).toEqual([400, 'Unsupported chain: eip155:1'])
  })

  it('drops an item whose transfers are all spam NFTs, and keeps other NFTs', async () => {
    const { TestNft721, TestNft1155 } = testNfts()
    const deployer = accounts[6] as Address
    const client = wallet()
    const deploy = async (artifact: typeof TestNft721, name: string, symbol: string) => {
      const hash = await client.deployContract({
        ...artifact,
        args: [name, symbol],
        account: deployer,
        chain: null,
      })
      const receipt = await client.waitForTransactionReceipt({ hash })
      return receipt.contractAddress as Address
    }
    const spam = await deploy(TestNft721, 'Claim your reward at nft-gift.xyz', 'GIFT')
    const kittens = await deploy(TestNft721, 'Airlock Kittens', 'KIT')
    const items = await deploy(TestNft1155, 'Airlock Items', 'ITEM')
    const holder = fresh()
    const call = (address: Address, abi: Abi, functionName: string, args: unknown[]) =>
      client
        .writeContract({ account: deployer, address, abi, functionName, args, chain: null })
        .then((hash) => mined(hash))
    await call(spam, TestNft721.abi, 'mint', [holder, 1n])
    const kitten = await call(kittens, TestNft721.abi, 'mint', [holder, 7n])
    const batch = await call(items, TestNft1155.abi, 'mintBatch', [holder, [1n, 2n], [3n, 4n]])
    const single = await call(items, TestNft1155.abi, 'mint', [holder, 5n, 2n])
    const marker = await sendEth(deployer, holder, 1n)
    const listed = await itemsOf(holder, 4)
    expect(listed.data.map((item) => item.id)).toEqual([marker, single, batch, kitten])
    expect(
      listed.data[1]?.transfers.map((transfer) => [transfer.nft_info?.name, transfer.quantity.numeric]),
    ).toEqual([['Airlock Items #5', '2']])
    expect(listed.data[2]?.metadata.operationType).toBe('mint')
    expect(
      listed.data[2]?.transfers.map((transfer) => [transfer.nft_info?.name, transfer.quantity.numeric]),
    ).toEqual([
      ['Airlock Items #1', '3'],
      ['Airlock Items #2', '4'],
    ])
    expect(listed.data[3]?.transfers).toEqual([
      {
        nft_info: {
          name: 'Airlock Kittens #7',
          content: { preview: { url: '' } },
          flags: { is_spam: false },
        },
        direction: 'in',
        quantity: { numeric: '1' },
      },
    ])
    // An operator's verdict counts the same as the name's.
    expect(await History.Spam.mark(db, 'eip155:31337', kittens, true)).toBe(true)
    expect((await page(holder)).data.map((item) => item.id)).toEqual([marker, single, batch])
  })

  it('records a failed transaction for its sender only, and an approval as approve', async () => {
    const sender = accounts[5] as Address
    const receiver = fresh()
    // A fixed gas limit skips estimation, so anvil mines the reverting transfer instead of refusing it.
    const failed = await sendAlt(sender, receiver, parseUnits('999999999', 18), { gas: 100_000n })
    const approval = await wallet()
      .writeContract({
        account: sender,
        address: testTokenAddress,
        abi: erc20Abi,
        functionName: 'approve',
        args: [receiver, 1n],
        chain: null,
      })
      .then((hash) => mined(hash))
    const listed = await waitFor(async () => {
      const answer = await page(sender, '&chainId=eip155:31337')
      return answer.data[0]?.id === approval && answer
    })
    expect(
      listed.data
        .slice(0, 2)
        .map((item) => [item.id, item.metadata.operationType, item.metadata.status, item.transfers]),
    ).toEqual([
      [approval, 'approve', 'confirmed', []],
      [failed, 'execute', 'failed', []],
    ])
    expect((await page(receiver)).data).toEqual([])
  })

  it('answers an on-ramp query with an empty page, and refuses bad accounts and unknown projects', async () => {
    const account = accounts[2] as Address
    expect(await page(account, '&onramp=coinbase')).toEqual({ data: [], next: null })
    for (const bad of ['0x123', '0x000000000000000000000000000000000000dEAd', 'vitalik.eth']) {
      const { status, body } = await history(bad)
      expect([status, body.message]).toEqual([400, historyMessages.invalidAccount])
    }
    const response = await app.request(`/v1/account/${account}/history?projectId=nobody`)
    expect(response.status).toBe(403)
  })
})
