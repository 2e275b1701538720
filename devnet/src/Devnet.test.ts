import { createServer } from 'node:net'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from './Accounts.ts'
import {
  idRegistryAddress,
  testCollectibleAddress,
  testItemsAddress,
  testTokenAddress,
  testUsdAddress,
} from './Chains.ts'
import * as Devnet from './Devnet.ts'
import * as Pools from './dex/Pools.ts'
import * as V3Pools from './dex/V3Pools.ts'
import * as IdRegistry from './farcaster/IdRegistry.ts'
import { testCollectibleAbi } from './TestCollectible.ts'
import { testItemsAbi } from './TestItems.ts'
import { testTokenAbi } from './TestToken.ts'

// Away from 8545/8546 so the suite runs beside `npm start`.
const ports = [18545, 18546] as const

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

function account(index: number): Accounts.Account {
  const found = Accounts.all()[index]
  if (!found) throw new Error(`no account ${index}`)
  return found
}

describe('Devnet', () => {
  let devnet: Devnet.Instance
  beforeAll(async () => {
    devnet = await Devnet.start({ ports })
  })
  afterAll(() => devnet?.stop())

  const reader = (index: 0 | 1) => createPublicClient({ transport: http(devnet.chains[index].rpcUrl) })

  it('runs chain 31337 and chain 31338 on the requested ports', async () => {
    expect(devnet.chains.map((c) => [c.chainId, c.caipNetworkId, c.rpcUrl])).toEqual([
      [31337, 'eip155:31337', 'http://127.0.0.1:18545'],
      [31338, 'eip155:31338', 'http://127.0.0.1:18546'],
    ])
    expect(await reader(0).getChainId()).toBe(31337)
    expect(await reader(1).getChainId()).toBe(31338)
  })

  it('derives anvil’s well-known accounts, funded with 10,000 ETH', async () => {
    expect(account(0)).toEqual({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    expect(Accounts.all()).toHaveLength(10)
    expect(await reader(1).getBalance({ address: account(9).address })).toBe(parseUnits('10000', 18))
  })

  it.each([0, 1] as const)('deploys ALT at the shared address on chain %i', async (index) => {
    const client = reader(index)
    const token = { address: testTokenAddress, abi: testTokenAbi } as const
    expect(devnet.chains[index].tokenAddress).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3')
    expect(await client.getCode({ address: testTokenAddress })).toMatch(/^0x[0-9a-f]{100,}$/)
    expect(await client.readContract({ ...token, functionName: 'name' })).toBe('Airlock Test Token')
    expect(await client.readContract({ ...token, functionName: 'symbol' })).toBe('ALT')
    expect(await client.readContract({ ...token, functionName: 'decimals' })).toBe(18)
    // Every account's million, what the v2 pairs WETH/ALT and ALT/tUSD hold, and what the v3 pools were given.
    expect(await client.readContract({ ...token, functionName: 'totalSupply' })).toBe(
      10n * Devnet.mintAmount + 2n * Pools.depth('ALT') + V3Pools.minted('ALT'),
    )
  })

  it.each([0, 1] as const)('deploys tUSD, a 6-decimal test dollar, on chain %i', async (index) => {
    const client = reader(index)
    const token = { address: testUsdAddress, abi: testTokenAbi } as const
    expect(testUsdAddress).toBe('0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9')
    expect(await client.readContract({ ...token, functionName: 'name' })).toBe('Airlock Test USD')
    expect(await client.readContract({ ...token, functionName: 'symbol' })).toBe('tUSD')
    expect(await client.readContract({ ...token, functionName: 'decimals' })).toBe(6)
    expect(await client.readContract({ ...token, functionName: 'totalSupply' })).toBe(
      10n * Devnet.usdMintAmount + 2n * Pools.depth('tUSD') + V3Pools.minted('tUSD'),
    )
  })

  it('gives every default account 1,000,000 ALT and 1,000,000 tUSD on both chains', async () => {
    expect(Devnet.mintAmount).toBe(1_000_000n * 10n ** 18n)
    expect(Devnet.usdMintAmount).toBe(1_000_000n * 10n ** 6n)
    for (const index of [0, 1] as const) {
      for (const { address } of Accounts.all()) {
        const balanceOf = (token: `0x${string}`) =>
          reader(index).readContract({
            address: token,
            abi: testTokenAbi,
            functionName: 'balanceOf',
            args: [address],
          })
        if (address !== Accounts.all()[0]?.address) {
          expect(await balanceOf(testTokenAddress)).toBe(Devnet.mintAmount)
          expect(await balanceOf(testUsdAddress)).toBe(Devnet.usdMintAmount)
          continue
        }
        // Account 0 minted what it put in the pools on top; a v3 position takes the two sides at the pool's
        // price, rounded down, so the change of its mint (a millionth of it at most) stays with account 0.
        for (const [token, million, side] of [
          [testTokenAddress, Devnet.mintAmount, 'ALT'],
          [testUsdAddress, Devnet.usdMintAmount, 'tUSD'],
        ] as const) {
          const change = (await balanceOf(token)) - million
          expect(change).toBeGreaterThanOrEqual(0n)
          expect(change).toBeLessThanOrEqual(V3Pools.minted(side) / 1_000_000n)
        }
      }
    }
  })

  it.each([0, 1] as const)(
    'deploys the test NFTs at the shared addresses on chain %i, held by accounts 0–3',
    async (index) => {
      const client = reader(index)
      const collectible = { address: testCollectibleAddress, abi: testCollectibleAbi } as const
      const items = { address: testItemsAddress, abi: testItemsAbi } as const
      expect(devnet.chains[index].chain.contracts).toMatchObject({
        testCollectible: { address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
        testItems: { address: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0' },
      })
      expect(await client.readContract({ ...collectible, functionName: 'name' })).toBe(
        'Airlock Test Collectible',
      )
      expect(await client.readContract({ ...collectible, functionName: 'symbol' })).toBe('ALTNFT')
      expect(await client.readContract({ ...items, functionName: 'name' })).toBe('Airlock Test Items')
      // ERC-721 and ERC-1155 by their ERC-165 ids, and neither claims the other's.
      const supports = (contract: { address: Address }, id: Hex) =>
        client.readContract({
          address: contract.address,
          abi: testItemsAbi,
          functionName: 'supportsInterface',
          args: [id],
        })
      expect(await supports(collectible, '0x80ac58cd')).toBe(true)
      expect(await supports(collectible, '0xd9b67a26')).toBe(false)
      expect(await supports(items, '0xd9b67a26')).toBe(true)
      expect(await supports(items, '0x80ac58cd')).toBe(false)
      const owners = await Promise.all(
        [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n].map((id) =>
          client.readContract({ ...collectible, functionName: 'ownerOf', args: [id] }),
        ),
      )
      expect(owners).toEqual([0, 0, 1, 1, 2, 2, 3, 3].map((holder) => account(holder).address))
      expect(await client.readContract({ ...collectible, functionName: 'totalSupply' })).toBe(8n)
      for (const holder of [0, 3, 4])
        expect(
          await client.readContract({
            ...items,
            functionName: 'balanceOfBatch',
            args: [[0, 1, 2].map(() => account(holder).address), [1n, 2n, 3n]],
          }),
        ).toEqual(holder < Devnet.nftHolders ? [10n, 3n, 1n] : [0n, 0n, 0n])
    },
  )

  it.each([0, 1] as const)(
    'deploys an empty Farcaster IdRegistry at its address on chain %i, where a key may get a fid',
    async (index) => {
      const target = { rpcUrl: devnet.chains[index].rpcUrl }
      expect(idRegistryAddress).toBe('0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9')
      const custody = privateKeyToAccount(generatePrivateKey()).address
      expect(await IdRegistry.idOf(target, account(0).address)).toBe(0n)
      await IdRegistry.register(target, custody, 1n, { from: account(7).address })
      expect(await IdRegistry.idOf(target, custody)).toBe(1n)
    },
  )

  it('serves each NFT’s metadata as a data: URI with an SVG image', async () => {
    const read = async (uri: string) => {
      const [, base64] = uri.match(/^data:application\/json;base64,(.+)$/) ?? []
      const json = JSON.parse(Buffer.from(base64 ?? '', 'base64').toString('utf8'))
      const [, svg] = String(json.image).match(/^data:image\/svg\+xml;base64,(.+)$/) ?? []
      return { name: json.name, svg: Buffer.from(svg ?? '', 'base64').toString('utf8') }
    }
    const token = await read(
      await reader(0).readContract({
        address: testCollectibleAddress,
        abi: testCollectibleAbi,
        functionName: 'tokenURI',
        args: [3n],
      }),
    )
    expect(token.name).toBe('Airlock Test Collectible #3')
    expect(token.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg".*>#3<\/text>.*<\/svg>$/)
    const item = await read(
      await reader(1).readContract({
        address: testItemsAddress,
        abi: testItemsAbi,
        functionName: 'uri',
        args: [2n],
      }),
    )
    expect(item.name).toBe('Star Map')
    expect(item.svg).toContain('>Star Map</text>')
    await expect(
      reader(0).readContract({
        address: testCollectibleAddress,
        abi: testCollectibleAbi,
        functionName: 'tokenURI',
        args: [99n],
      }),
    ).rejects.toThrow(/NonexistentToken/)
  })

  it('transfers ALT with a locally signed transaction and emits Transfer', async () => {
    const { chain, rpcUrl } = devnet.chains[1]
    const from = account(1)
    const to = account(2).address
    const amount = parseUnits('12.5', 18)
    const wallet = createWalletClient({
      account: privateKeyToAccount(from.privateKey),
      chain,
      transport: http(rpcUrl),
    })
    const hash = await wallet.writeContract({
      address: testTokenAddress,
      abi: testTokenAbi,
      functionName: 'transfer',
      args: [to, amount],
    })
    const receipt = await reader(1).waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    const events = parseEventLogs({ abi: testTokenAbi, logs: receipt.logs, eventName: 'Transfer' })
    expect(events).toHaveLength(1)
    expect(events[0]?.address.toLowerCase()).toBe(testTokenAddress.toLowerCase())
    expect(events[0]?.args).toEqual({ from: from.address, to, value: amount })
    const balanceOf = (address: `0x${string}`) =>
      reader(1).readContract({
        address: testTokenAddress,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      })
    expect(await balanceOf(from.address)).toBe(Devnet.mintAmount - amount)
    expect(await balanceOf(to)).toBe(Devnet.mintAmount + amount)
    // Chain A is a separate chain: its balances are untouched.
    expect(
      await reader(0).readContract({
        address: testTokenAddress,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [to],
      }),
    ).toBe(Devnet.mintAmount)
  })

  it('frees both ports on stop, and stop can be called again', async () => {
    expect(await canBind(ports[0])).toBe(false)
    await devnet.stop()
    await devnet.stop()
    expect(await canBind(ports[0])).toBe(true)
    expect(await canBind(ports[1])).toBe(true)
  })
})

describe('Devnet.start when a port is taken', () => {
  it('fails clearly and stops the chain it had already started', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 18548 }, resolve))
    try {
      await expect(Devnet.start({ ports: [18547, 18548] })).rejects.toThrow(/port 18548 .* already in use/)
      expect(await canBind(18547)).toBe(true)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })
})
