import { describe, expect, it, vi } from 'vitest'
import { addChainParameters, addressUrl, type Network, toCaip } from './Network.ts'
import { registry, resolve } from './networks.ts'

function known(id: string): Network {
  const [network] = resolve([id])
  if (!network) throw new Error(`${id} is not in the registry`)
  return network
}

describe('networks registry', () => {
  it('knows SPEC’s EVM networks, the devnets, Solana and Bitcoin', () => {
    const names = registry.map((network) => network.name)
    for (const name of [
      'Ethereum',
      'Base',
      'OP Mainnet',
      'Arbitrum One',
      'Polygon',
      'Linea Mainnet',
      'Avalanche',
    ])
      expect(names).toContain(name)
    expect(resolve(['eip155:31337', 'eip155:31338'])).toMatchObject([
      {
        name: 'Airlock Devnet A',
        rpcUrl: 'http://127.0.0.1:8545',
        nativeCurrency: { symbol: 'ETH', decimals: 18 },
      },
      { name: 'Airlock Devnet B', rpcUrl: 'http://127.0.0.1:8546' },
    ])
    expect(resolve(['eip155:31337'])[0]?.explorer).toBeUndefined()
    expect(resolve(['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'])[0]?.name).toBe('Solana Devnet')
    expect(resolve(['bip122:0f9188f13cb7b2c71f2a335e3a4fc328'])[0]?.name).toBe('Bitcoin Regtest')
  })

  it('keeps the host’s order and applies its RPC overrides', () => {
    const networks = resolve(['eip155:31338', 'eip155:1'], { rpcUrls: { 'eip155:1': 'https://rpc.example' } })
    expect(networks.map((network) => network.id)).toEqual(['eip155:31338', 'eip155:1'])
    expect(networks[1]?.rpcUrl).toBe('https://rpc.example')
  })

  it('skips an unknown network with a warning', () => {
    const warn = vi.fn()
    expect(resolve(['eip155:999999', 'eip155:1'], { warn }).map((network) => network.id)).toEqual([
      'eip155:1',
    ])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('eip155:999999'))
  })

  it('maps Wallet Standard chains and hex chain ids to CAIP-2', () => {
    expect(toCaip('solana:devnet')).toBe('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')
    expect(toCaip('solana:mainnet')).toBe('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
    expect(toCaip('solana:testnet')).toBe('solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z')
    expect(toCaip('bitcoin:mainnet')).toBe('bip122:000000000019d6689c085ae165831e93')
    expect(toCaip('bitcoin:testnet')).toBe('bip122:000000000933ea01ad0ee984209779ba')
    expect(toCaip('bitcoin:regtest')).toBe('bip122:0f9188f13cb7b2c71f2a335e3a4fc328')
    expect(toCaip('0x7a69')).toBe('eip155:31337')
    expect(toCaip('eip155:8453')).toBe('eip155:8453')
    expect(toCaip('cosmos:hub')).toBeUndefined()
  })

  it('reads no chain from names every object has', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(toCaip(name), name).toBeUndefined()
  })

  it('gives wallet_addEthereumChain parameters, with explorers when known', () => {
    expect(addChainParameters(known('eip155:31338'))).toEqual({
      chainId: '0x7a6a',
      chainName: 'Airlock Devnet B',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['http://127.0.0.1:8546'],
    })
    expect(addChainParameters(known('eip155:8453')).blockExplorerUrls).toEqual(['https://basescan.org'])
  })

  it('links an address on the explorer', () => {
    expect(addressUrl(known('eip155:31337'), '0xab')).toBeUndefined()
    expect(addressUrl(known('eip155:1'), '0xab')).toBe('https://etherscan.io/address/0xab')
    expect(addressUrl(known('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'), 'So1')).toBe(
      'https://explorer.solana.com/address/So1?cluster=devnet',
    )
  })
})
