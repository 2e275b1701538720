// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.

import * as S from '@airlock/bridge-protocol/Shape'
import { createTestClient, getAddress, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Accounts, Devnet, testTokenAddress } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { messages } from '../../http/errors.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { calls, configOf, ether, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Prices from './Prices.ts'
import { balanceTtlMs } from './routes.ts'

// Ports of their own, so the suite runs beside `npm start` and the devnet's tests.
let devnet: Devnet.Instance
let deadRpc: string
beforeAll(async () => {
  devnet = await Devnet.start({ ports: [18745, 18746] })
  deadRpc = `http://127.0.0.1:${await closedPort()}`
})
afterAll(() => devnet?.stop())

const holder = Accounts.all()[1]?.address as `0x${string}`

function chainsOf(): Config.Chain[] {
  const [a, b] = devnet.chains
  const token = { address: testTokenAddress, name: 'Airlock Test Token', symbol: 'ALT', decimals: 18 }
  return [
    {
      id: a.caipNetworkId,
      name: 'A',
      rpcUrl: a.rpcUrl,
      wsUrl: a.rpcUrl.replace('http', 'ws'),
      nativeCurrency: ether,
      testnet: true,
      tokens: [token],
    },
    // The same contract listed again with decimals 0: such balances are dropped as low quality.
    {
      id: b.caipNetworkId,
      name: 'B',
      rpcUrl: b.rpcUrl,
      nativeCurrency: ether,
      tokens: [token, { ...token, symbol: 'ALT0', decimals: 0 }],
    },
    { id: 'eip155:999', name: 'Dead', rpcUrl: deadRpc, nativeCurrency: ether },
    {
      id: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      name: 'Solana Devnet',
      rpcUrl: 'http://127.0.0.1:8899',
      nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    },
  ]
}

describe.each(databases())('balances on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let time = Date.UTC(2026, 10, 22)
  const { json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.add(db, 'quiet', [shop])
    await Prices.set(db, [
      {
        chainId: 'eip155:31337',
        address: Prices.native,
        currency: 'usd',
        price: 3000,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: null,
      },
      {
        chainId: 'eip155:31337',
        address: testTokenAddress,
        currency: 'usd',
        price: 0.5,
        name: 'Airlock Test Token',
        symbol: 'ALT',
        iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
      },
      {
        chainId: 'eip155:31337',
        address: Prices.native,
        currency: 'eur',
        price: 2800,
        name: 'Ether',
        symbol: 'ETH',
        iconUrl: null,
      },
    ])
    api = Service.create({ db, config: configOf(chainsOf()), now: () => time }).api
  })
  afterAll(() => db?.close())

  it('lists the configured chains, ws where a WebSocket URL is configured, each named, test networks marked', async () => {
    const sol = { name: 'Solana', symbol: 'SOL', decimals: 9 }
    expect(await json('/v1/supported-chains?projectId=demo')).toEqual({
      status: 200,
      body: {
        http: ['eip155:31337', 'eip155:31338', 'eip155:999', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
        ws: ['eip155:31337'],
        chains: [
          // Marked where the configuration says so, and only there.
          { id: 'eip155:31337', name: 'A', nativeCurrency: ether, testnet: true },
          { id: 'eip155:31338', name: 'B', nativeCurrency: ether },
          { id: 'eip155:999', name: 'Dead', nativeCurrency: ether },
          { id: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', name: 'Solana Devnet', nativeCurrency: sol },
        ],
      },
    })
  })

  it('lets no RPC URL (nor tokens) of the configuration reach a browser', async () => {
    const { body } = await json('/v1/supported-chains?projectId=demo')
    const text = JSON.stringify(body)
    for (const chain of chainsOf()) expect(text).not.toContain(chain.rpcUrl)
    expect(text).not.toMatch(/rpc|ws:\/\/|tokens/i)
  })

  describe('GET /v1/account/{address}/balance', () => {
    const balance = (address: string, query = 'chainId=eip155:31337') =>
      json(`/v1/account/${address}/balance?projectId=demo&${query}`)

    it('reads native and ERC-20 balances from the chain, priced', async () => {
      const { status, body } = await balance(holder)
      expect(status).toBe(200)
      expect(body.balances).toEqual([
        {
          name: 'Ether',
          symbol: 'ETH',
          chainId: 'eip155:31337',
          value: 30_000_000,
          price: 3000,
          quantity: { decimals: '18', numeric: '10000' },
          iconUrl: '',
        },
        {
          name: 'Airlock Test Token',
          symbol: 'ALT',
          chainId: 'eip155:31337',
          address: `eip155:31337:${testTokenAddress}`,
          value: 500_000,
          price: 0.5,
          quantity: { decimals: '18', numeric: '1000000' },
          iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
        },
      ])
    })

    it('prices in the asked currency, and unpriced assets at 0', async () => {
      const { body } = await balance(holder, 'chainId=eip155:31337&currency=eur')
      const [eth, alt] = body.balances as { price: number; value: number }[]
      expect(eth).toMatchObject({ price: 2800, value: 28_000_000 })
      expect(alt).toMatchObject({ price: 0, value: 0 })
      const other = await balance(holder, 'chainId=eip155:31338')
      expect((other.body.balances as { price: number }[]).map((entry) => entry.price)).toEqual([0, 0])
      expect((other.body.balances as { symbol: string }[]).map((entry) => entry.symbol)).toEqual([
        'ETH',
        'ALT',
      ])
    })

    it('leaves out tokens the address does not hold', async () => {
      const stranger = '0x000000000000000000000000000000000000dEaD'
      const { body } = await balance(stranger)
      expect((body.balances as { symbol: string }[]).map((entry) => entry.symbol)).toEqual(['ETH'])
    })

    it('caches for 30 s unless forceUpdate', async () => {
      // Letters in it, so that its EIP-55 spelling and its lower-case one differ.
      const address = getAddress('0xabcdef0000000000000000000000000000000001')
      expect(address.toLowerCase()).not.toBe(address)
      const client = createTestClient({ mode: 'anvil', transport: http(devnet.chains[0].rpcUrl) })
      const numeric = async (query = 'chainId=eip155:31337', spelling: string = address) =>
        ((await balance(spelling, query)).body.balances as { quantity: { numeric: string } }[])[0]?.quantity
          .numeric
      await client.setBalance({ address, value: parseEther('1') })
      expect(await numeric()).toBe('1')
      await client.setBalance({ address, value: parseEther('2') })
      expect(await numeric()).toBe('1')
      // The same address in another spelling is the same cache entry.
      expect(await numeric(undefined, address.toLowerCase())).toBe('1')
      expect(await numeric('chainId=eip155:31337&forceUpdate=true')).toBe('2')
      await client.setBalance({ address, value: parseEther('3') })
      time += balanceTtlMs - 1
      expect(await numeric()).toBe('2')
      time += 2
      expect(await numeric()).toBe('3')
    })

    it('refuses invalid addresses, chains and currencies', async () => {
      const cases: [string, string, string][] = [
        ['0x123', 'chainId=eip155:31337', 'Invalid EVM address'],
        ['0x000000000000000000000000000000000000dEAd', 'chainId=eip155:31337', 'Invalid EVM address'],
        [holder, 'chainId=eip155', 'Invalid CAIP-2 network id'],
        [holder, '', 'chainId'],
        [holder, 'chainId=eip155:1', messages.unsupportedChain('eip155:1')],
        // A configured Solana chain takes Solana addresses only.
        [holder, 'chainId=solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'Invalid Solana address'],
        [holder, 'chainId=solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', 'Unsupported chain'],
        [holder, 'chainId=eip155:31337&currency=doge', 'currency'],
        [holder, 'chainId=eip155:31337&forceUpdate=yes', 'forceUpdate'],
      ]
      for (const [address, query, message] of cases) {
        const { status, body } = await balance(address, query)
        expect(status, `${address} ${query}`).toBe(400)
        expect(body.message).toContain(message)
      }
    })

    it('answers 502 when the chain RPC is dead', async () => {
      expect(await balance(holder, 'chainId=eip155:999')).toEqual({
        status: 502,
        body: { message: messages.rpcUnavailable('eip155:999') },
      })
    })
  })

  describe('POST /v1/fungible/price', () => {
    const post = (body: unknown, query = '') =>
      json(`/v1/fungible/price${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })

    it('prices the assets it knows and leaves out the rest', async () => {
      const { status, body } = await post({
        projectId: 'demo',
        currency: 'usd',
        addresses: [
          `eip155:31337:${Prices.native}`,
          `eip155:31337:${testTokenAddress}`,
          'eip155:1:0x0000000000000000000000000000000000000001',
        ],
      })
      expect(status).toBe(200)
      expect(body.fungibles).toEqual([
        { name: 'Ether', symbol: 'ETH', iconUrl: '', price: 3000, address: `eip155:31337:${Prices.native}` },
        {
          name: 'Airlock Test Token',
          symbol: 'ALT',
          iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/alt',
          price: 0.5,
          address: `eip155:31337:${testTokenAddress.toLowerCase()}`,
        },
      ])
    })

    it('takes the project from the query as well', async () => {
      expect((await post({ currency: 'usd', addresses: [] }, '?projectId=demo')).status).toBe(200)
    })

    it('refuses bad bodies and unknown projects', async () => {
      expect((await post('{not json', '?projectId=demo')).body.message).toBe(messages.invalidJson)
      expect((await post({ projectId: 'demo', currency: 'usd', addresses: ['0xabc'] })).body.message).toBe(
        'Invalid CAIP-10 address',
      )
      expect((await post({ projectId: 'demo', currency: 'xxx', addresses: [] })).status).toBe(400)
      expect(
        (
          await post({
            projectId: 'demo',
            currency: 'usd',
            addresses: Array(101).fill(`eip155:1:${Prices.native}`),
          })
        ).status,
      ).toBe(400)
      expect(await post({ projectId: 'nope', currency: 'usd', addresses: [] })).toEqual({
        status: 403,
        body: { message: messages.projectNotConfigured },
      })
      expect(
        (await post({ projectId: 'demo', currency: 'usd', addresses: [], pad: 'x'.repeat(70_000) })).status,
      ).toBe(413)
    })
  })

  it('answers in the shapes of the contract the modal parses with', async () => {
    const chains = await json('/v1/supported-chains?projectId=demo')
    expect(S.parse(Contract.supportedChainsAnswer, chains.body)).toEqual({ ok: true, value: chains.body })
    const balances = await json(`/v1/account/${holder}/balance?projectId=demo&chainId=eip155:31337`)
    expect(S.parse(Contract.balancesAnswer, balances.body)).toEqual({ ok: true, value: balances.body })
  })
})
