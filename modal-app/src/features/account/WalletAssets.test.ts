import type { Request } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { Batches } from '../../connectors/Connector.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import { find } from '../../shared/networks.ts'
import { discover, merge } from './WalletAssets.ts'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const devnet = find('eip155:31337')
if (!devnet) throw new Error('the devnet network is in the registry')
const connection = { chainId: 'eip155:31337', accounts: [{ address }] } as unknown as Connection

/** A kernel whose wallet answers `wallet_getCapabilities` with `capabilities` and `wallet_getAssets` with `assets`. */
function walletWith(capabilities: Record<string, Record<string, unknown>>, assets: unknown) {
  const asked: Request[] = []
  const batches: Batches = { capabilities: async () => capabilities, showsStatus: true }
  const kernel = {
    batchesOf: () => batches,
    walletRequest: vi.fn(async (_connection: Connection, request: Request) => {
      asked.push(request)
      if (assets instanceof Error) throw assets
      return assets
    }),
  } as unknown as Kernel
  return { kernel, asked }
}

const discovery = { '0x7a69': { assetDiscovery: { supported: true } } }
const usdc = {
  address: token,
  balance: '0x1e8480',
  type: 'erc20',
  metadata: { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
}

describe('asset discovery (EIP-7811)', () => {
  it('asks a wallet that announces it for the account’s assets on its chain, and reads them as balances', async () => {
    const { kernel, asked } = walletWith(discovery, {
      '0x7a69': [{ address: 'native', balance: '0xde0b6b3a7640000', type: 'native' }, usdc],
    })
    const rows = await discover(kernel, connection, address, devnet)
    expect(asked).toEqual([
      {
        namespace: 'eip155',
        method: 'wallet_getAssets',
        params: [{ account: address, chainFilter: ['0x7a69'] }],
      },
    ])
    expect(rows).toEqual([
      {
        name: devnet.nativeCurrency.name,
        symbol: devnet.nativeCurrency.symbol,
        chainId: 'eip155:31337',
        value: 0,
        price: 0,
        iconUrl: '',
        quantity: { decimals: '18', numeric: '1' },
      },
      {
        name: 'USD Coin',
        symbol: 'USDC',
        address: token,
        chainId: 'eip155:31337',
        value: 0,
        price: 0,
        iconUrl: '',
        quantity: { decimals: '6', numeric: '2' },
      },
    ])
  })

  it('takes the announcement for every chain (0x0)', async () => {
    const { kernel } = walletWith({ '0x0': { assetDiscovery: { supported: true } } }, { '0x7a69': [usdc] })
    expect((await discover(kernel, connection, address, devnet)).map((row) => row.symbol)).toEqual(['USDC'])
  })

  it('asks nothing of a wallet that does not announce it, or announces it for another chain', async () => {
    const announcements: Record<string, Record<string, unknown>>[] = [
      {},
      { '0x7a69': { atomic: { status: 'supported' } } },
      { '0x7a69': { assetDiscovery: { supported: false } } },
      { '0x7a69': { assetDiscovery: true } },
      { '0x1': { assetDiscovery: { supported: true } } },
    ]
    for (const capabilities of announcements) {
      const { kernel, asked } = walletWith(capabilities, { '0x7a69': [usdc] })
      expect(await discover(kernel, connection, address, devnet)).toEqual([])
      expect(asked).toEqual([])
    }
  })

  it('ignores an answer of the wrong shape, and a refusal', async () => {
    for (const answer of [
      null,
      'assets',
      [usdc],
      { '0x7a69': usdc },
      { '0x7a69': 'USDC' },
      new Error('4200: The Provider does not support the requested method.'),
    ]) {
      const { kernel } = walletWith(discovery, answer)
      expect(await discover(kernel, connection, address, devnet)).toEqual([])
    }
  })

  it('leaves out each asset of the wrong shape or that is no balance, and keeps the rest', async () => {
    const { kernel } = walletWith(discovery, {
      '0x7a69': [
        { ...usdc, address: '0x1234' },
        { ...usdc, balance: '2000000' },
        { ...usdc, balance: `0x${'f'.repeat(65)}` },
        { ...usdc, metadata: { symbol: 'USDC', decimals: 6.5 } },
        { ...usdc, metadata: { symbol: 'USDC' } },
        { ...usdc, metadata: null },
        { ...usdc, balance: '0x0' },
        { address: token, balance: '0x1', type: 'erc721', metadata: { name: 'Punk' } },
        usdc,
      ],
      // Another chain's list is not this account's balance here.
      '0x1': [{ ...usdc, metadata: { ...usdc.metadata, symbol: 'MAIN' } }],
    })
    expect((await discover(kernel, connection, address, devnet)).map((row) => row.symbol)).toEqual(['USDC'])
  })

  it('adds to the API’s balances only what they lack; the API’s row, with its price, wins', () => {
    const api = [
      {
        name: 'Ether',
        symbol: 'ETH',
        chainId: 'eip155:31337',
        value: 3000,
        price: 3000,
        iconUrl: 'https://icons.example/eth.png',
        quantity: { decimals: '18', numeric: '1' },
      },
    ]
    const wallet = [
      { ...api[0], value: 0, price: 0, iconUrl: '', quantity: { decimals: '18', numeric: '9' } },
      {
        name: 'USD Coin',
        symbol: 'USDC',
        address: token.toLowerCase(),
        chainId: 'eip155:31337',
        value: 0,
        price: 0,
        iconUrl: '',
        quantity: { decimals: '6', numeric: '2' },
      },
    ] as typeof api
    expect(merge(api, wallet)).toEqual([api[0], wallet[1]])
    expect(
      merge([...api, { ...(wallet[1] as (typeof api)[0]), address: token, value: 2 }], wallet),
    ).toHaveLength(2)
  })
})
