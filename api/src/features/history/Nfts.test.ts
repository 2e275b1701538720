import * as S from '@airlock/bridge-protocol/Shape'
import {
  type Address,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hash,
  http,
  publicActions,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Devnet, testCollectibleAddress, testItemsAddress } from '../../../../devnet/src/index.ts'
import { testCollectibleAbi } from '../../../../devnet/src/TestCollectible.ts'
import { testItemsAbi } from '../../../../devnet/src/TestItems.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { ether } from '../../internal/testApi.ts'
import * as History from './index.ts'
import { historyMessages } from './routes.ts'
import * as Store from './Store.ts'
import { testNfts } from './testContracts.ts'
import { accounts, engines, historyApp, projectId, rpcProxy, type TestDatabase, waitFor } from './testing.ts'

let serial = 0
/** An address no test has used yet. */
const fresh = () => `0x${(0xcafe000 + ++serial).toString(16).padStart(40, '0')}` as Address
const chainA = 'eip155:31337'
const collectible = `${chainA}:${testCollectibleAddress}`
const items = `${chainA}:${testItemsAddress}`
const svgImage = /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/
const other = {
  solana: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  bitcoin: 'bip122:000000000019d6689c085ae165831e93',
}

/** An entry as the tests compare them: which token, how many, and what it is called. */
const brief = (nft: Contract.Nft) => [nft.contract, nft.tokenId, nft.amount, nft.name]

describe.each(engines())('GET /v1/account/{address}/nfts on $engine', ({ open }) => {
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
    }))
    opened = await open()
    db = opened.db
    indexer = History.Indexer.start({
      db,
      lockUrl: opened.lockUrl,
      config: { chains },
      pollMs: 50,
      log: () => {},
    })
    // Served but not indexed here: chains of the families whose NFTs are not listed.
    const unindexed = Object.values(other).map((id) => ({
      id,
      name: id,
      rpcUrl: 'http://127.0.0.1:1',
      nativeCurrency: ether,
    }))
    app = await historyApp(db, [...chains, ...unindexed])
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
  const mined = async (hash: Hash) => {
    const receipt = await wallet().waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return hash
  }
  const nfts = async (address: string, query = `&chainId=${chainA}`, on = app) => {
    const response = await on.request(`/v1/account/${address}/nfts?projectId=${projectId}${query}`)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const list = async (address: string, query?: string, on = app) => {
    const { status, body } = await nfts(address, query, on)
    expect(status, JSON.stringify(body)).toBe(200)
    const parsed = S.parse(Contract.nftsAnswer, body)
    if (!parsed.ok) throw new Error(parsed.message)
    return parsed.value
  }
  /** Waits until the account's listing passes `check` (the indexer follows the chain within ~100 ms). */
  const listed = (address: string, check: (data: Contract.Nft[]) => boolean, query?: string, on = app) =>
    waitFor(async () => {
      const answer = await list(address, query, on)
      return check(answer.data) && answer
    })

  it('lists what the devnet deployed to account 3: two collectibles and three kinds of item, named, with images', async () => {
    const holder = accounts[3] as Address
    // A page waits 3 s at most for the chain's metadata (a busy machine may take longer); a later one has it.
    const answer = await listed(holder, (data) => data.length === 5 && data.every((nft) => nft.name !== ''))
    expect(answer.next).toBeNull()
    // By contract address, then token id: the items' contract (0x9fE4…) sorts before the collectible's (0xe7f1…).
    expect(answer.data.map(brief)).toEqual([
      [items, '1', '10', 'Brass Key'],
      [items, '2', '3', 'Star Map'],
      [items, '3', '1', 'Lantern'],
      [collectible, '7', '1', 'Airlock Test Collectible #7'],
      [collectible, '8', '1', 'Airlock Test Collectible #8'],
    ])
    expect(answer.data[3]).toEqual({
      chainId: chainA,
      contract: collectible,
      tokenId: '7',
      standard: 'erc721',
      amount: '1',
      name: 'Airlock Test Collectible #7',
      symbol: 'ALTNFT',
      collection: 'Airlock Test Collectible',
      imageUrl: expect.stringMatching(svgImage),
      spam: false,
    })
    expect(answer.data[0]).toMatchObject({
      standard: 'erc1155',
      symbol: 'ALTITEM',
      collection: 'Airlock Test Items',
    })
    const svg = Buffer.from(answer.data[3]?.imageUrl?.split(',')[1] ?? '', 'base64').toString('utf8')
    expect(svg).toContain('>#7</text>')
    // The same collections on chain B, under its own id; an account the deployment gave none holds none.
    const onB = await listed(holder, (data) => data.length === 5, '&chainId=eip155:31338')
    expect(onB.data.map((nft) => [nft.chainId, nft.contract, nft.tokenId])).toContainEqual([
      'eip155:31338',
      `eip155:31338:${testCollectibleAddress}`,
      '8',
    ])
    expect(await list(accounts[4] as Address)).toEqual({ data: [], next: null })
  })

  it('moves an ERC-721 token with its transfer: the sender no longer lists it, the receiver does', async () => {
    const sender = accounts[1] as Address
    const receiver = fresh()
    await mined(
      await wallet().writeContract({
        account: sender,
        address: testCollectibleAddress,
        abi: testCollectibleAbi,
        functionName: 'transferFrom',
        args: [sender, receiver, 3n],
        chain: null,
      }),
    )
    const received = await listed(
      receiver,
      (data) => data.length === 1 && data.every((nft) => nft.name !== ''),
    )
    expect(received.data.map(brief)).toEqual([[collectible, '3', '1', 'Airlock Test Collectible #3']])
    const kept = await list(sender)
    expect(kept.data.filter((nft) => nft.contract === collectible).map((nft) => nft.tokenId)).toEqual(['4'])
  })

  it('counts a partial ERC-1155 transfer on both sides, and drops an item sent away whole', async () => {
    const sender = accounts[2] as Address
    const receiver = fresh()
    const contract = { account: sender, address: testItemsAddress, abi: testItemsAbi, chain: null } as const
    await mined(
      await wallet().writeContract({
        ...contract,
        functionName: 'safeTransferFrom',
        args: [sender, receiver, 1n, 4n, '0x'],
      }),
    )
    await mined(
      await wallet().writeContract({
        ...contract,
        functionName: 'safeBatchTransferFrom',
        args: [sender, receiver, [2n, 3n], [1n, 1n], '0x'],
      }),
    )
    const received = await listed(
      receiver,
      (data) => data.length === 3 && data.every((nft) => nft.name !== ''),
    )
    expect(received.data.map(brief)).toEqual([
      [items, '1', '4', 'Brass Key'],
      [items, '2', '1', 'Star Map'],
      [items, '3', '1', 'Lantern'],
    ])
    const kept = await list(sender)
    expect(kept.data.filter((nft) => nft.contract === items).map(brief)).toEqual([
      [items, '1', '6', 'Brass Key'],
      [items, '2', '2', 'Star Map'],
    ])
  })

  it('forgets what an orphaned transfer gave when a reorg replaces its block', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(devnet.chains[0].rpcUrl) })
    const orphan = fresh()
    const snapshot = await test.snapshot()
    const mint = (to: Address) =>
      wallet()
        .writeContract({
          account: accounts[0] as Address,
          address: testCollectibleAddress,
          abi: testCollectibleAbi,
          functionName: 'mint',
          args: [to],
          chain: null,
        })
        .then(mined)
    await mint(orphan)
    expect((await listed(orphan, (data) => data.length === 1)).data.map((nft) => nft.contract)).toEqual([
      collectible,
    ])
    await test.revert({ id: snapshot })
    // Another transaction at the same height: the chain the indexer followed is replaced, not only shortened.
    const winner = fresh()
    await mint(winner)
    await listed(winner, (data) => data.length === 1)
    const head = await wallet().getBlock({ blockTag: 'latest' })
    await waitFor(async () => (await Store.cursor(db, chainA))?.hash === head.hash)
    expect(await list(orphan)).toEqual({ data: [], next: null })
  })

  it('pages through 30 NFTs by token id, 24 then 6, with a cursor only this listing takes', async () => {
    const holder = fresh()
    const ids = Array.from({ length: 30 }, (_, i) => BigInt(i + 1))
    await mined(
      await wallet().writeContract({
        account: accounts[5] as Address,
        address: testItemsAddress,
        abi: testItemsAbi,
        functionName: 'mint',
        args: [holder, ids, ids.map(() => 1n)],
        chain: null,
      }),
    )
    const first = await listed(holder, (data) => data.length > 0)
    expect(first.data.map((nft) => nft.tokenId)).toEqual(ids.slice(0, 24).map(String))
    expect(first.data[5]?.name).toBe('Item #6')
    if (!first.next) throw new Error('expected a second page')
    const second = await list(holder, `&chainId=${chainA}&cursor=${first.next}`)
    expect(second).toMatchObject({ next: null })
    expect(second.data.map((nft) => nft.tokenId)).toEqual(ids.slice(24).map(String))
    const flipped = first.next.slice(0, 12) + (first.next[12] === 'A' ? 'B' : 'A') + first.next.slice(13)
    for (const [address, query] of [
      [holder, `&chainId=${chainA}&cursor=${flipped}`],
      [accounts[3] as Address, `&chainId=${chainA}&cursor=${first.next}`],
      [holder, `&chainId=eip155:31338&cursor=${first.next}`],
    ] as const) {
      const { status, body } = await nfts(address, query)
      expect([status, body.message]).toEqual([400, historyMessages.invalidCursor])
    }
  })

  it('flags spam collections: one whose name advertises, and one an operator marks', async () => {
    const { TestNft721 } = testNfts()
    const client = wallet()
    const deployer = accounts[6] as Address
    const { contractAddress: lure } = await client.waitForTransactionReceipt({
      hash: await client.deployContract({
        ...TestNft721,
        args: ['Claim your reward at nft-gift.xyz', 'GIFT'],
        account: deployer,
        chain: null,
      }),
    })
    if (!lure) throw new Error('no contract deployed')
    const holder = accounts[3] as Address
    await mined(
      await client.writeContract({
        account: deployer,
        address: lure,
        abi: TestNft721.abi,
        functionName: 'mint',
        args: [holder, 42n],
        chain: null,
      }),
    )
    const answer = await listed(holder, (data) => data.length === 6)
    const spam = answer.data.filter((nft) => nft.spam)
    // No ERC-165 and no token URI: an ERC-721 named after its collection, with no image.
    expect(spam).toEqual([
      {
        chainId: chainA,
        // EIP-55, as every contract the listing names (the receipt spells it in lower case).
        contract: `${chainA}:${getAddress(lure)}`,
        tokenId: '42',
        standard: 'erc721',
        amount: '1',
        name: 'Claim your reward at nft-gift.xyz #42',
        symbol: 'GIFT',
        collection: 'Claim your reward at nft-gift.xyz',
        spam: true,
      },
    ])
    expect(await History.Spam.mark(db, chainA, testCollectibleAddress, true)).toBe(true)
    const marked = await list(holder)
    expect(marked.data.filter((nft) => nft.spam).map((nft) => Number(nft.tokenId))).toEqual(
      expect.arrayContaining([7, 8, 42]),
    )
    expect(marked.data.filter((nft) => nft.spam)).toHaveLength(3)
    await History.Spam.mark(db, chainA, testCollectibleAddress, false)
  })

  it('answers without metadata while the chain does not, and keeps what it read once it does', async () => {
    const proxy = await rpcProxy(devnet.chains[0].rpcUrl)
    const viaProxy = await historyApp(
      db,
      chains.map((chain) => (chain.id === chainA ? { ...chain, rpcUrl: proxy.url } : chain)),
    )
    try {
      const holder = fresh()
      await proxy.down()
      await mined(
        await wallet().writeContract({
          account: accounts[7] as Address,
          address: testItemsAddress,
          abi: testItemsAbi,
          functionName: 'mint',
          args: [holder, [77n], [5n]],
          chain: null,
        }),
      )
      const without = await listed(holder, (data) => data.length === 1, undefined, viaProxy)
      // The collection's name stands in for the token's own, which only the chain knows.
      expect(without.data[0]).toMatchObject({ tokenId: '77', amount: '5', name: 'Airlock Test Items #77' })
      expect(without.data[0]).not.toHaveProperty('imageUrl')
      await proxy.up()
      const read = await list(holder, undefined, viaProxy)
      expect(read.data[0]).toMatchObject({ name: 'Item #77', imageUrl: expect.stringMatching(svgImage) })
      await proxy.down()
      expect(await list(holder, undefined, viaProxy)).toEqual(read)
    } finally {
      await proxy.down()
    }
  })

  it('refuses addresses that are not EVM ones, chains it does not serve or lists no NFTs of, and unknown projects', async () => {
    for (const bad of [
      '0x123',
      '0x000000000000000000000000000000000000dEAd',
      'So11111111111111111111111111111111111111112',
    ])
      expect(await nfts(bad)).toEqual({ status: 400, body: { message: 'Invalid EVM address' } })
    const holder = accounts[3] as Address
    for (const chainId of ['eip155:1', other.solana, other.bitcoin])
      expect(await nfts(holder, `&chainId=${chainId}`)).toEqual({
        status: 400,
        body: { message: `Unsupported chain: ${chainId}` },
      })
    expect((await nfts(holder, '')).status).toBe(400)
    const response = await app.request(`/v1/account/${holder}/nfts?projectId=nobody&chainId=${chainA}`)
    expect(response.status).toBe(403)
  })
})
