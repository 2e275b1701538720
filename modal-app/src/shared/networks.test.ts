import { describe, expect, it, vi } from 'vitest'
import {
  addChainParameters,
  addressUrl,
  type CustomNetwork,
  type Network,
  toCaip,
  walletSupports,
} from './Network.ts'
import { find, registry, resolve } from './networks.ts'

function known(id: string): Network {
  const [network] = resolve([id])
  if (!network) throw new Error(`${id} is not in the registry`)
  return network
}

describe('networks registry', () => {
  it('knows docs/behaviour.md’s EVM networks, the devnets, Solana and Bitcoin', () => {
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

  it('knows the mainnets’ test networks, marked as such', () => {
    const ids = [
      'eip155:11155111',
      'eip155:84532',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      'bip122:000000000933ea01ad0ee984209779ba',
      'bip122:00000008819873e925422c1ff0f99f7c',
    ]
    expect(resolve(ids).map(({ name, testnet }) => ({ name, testnet }))).toEqual([
      { name: 'Sepolia', testnet: true },
      { name: 'Base Sepolia', testnet: true },
      { name: 'Solana Devnet', testnet: true },
      { name: 'Solana Testnet', testnet: true },
      { name: 'Bitcoin Testnet', testnet: true },
      { name: 'Bitcoin Signet', testnet: true },
    ])
    expect(resolve(['eip155:1', 'eip155:8453']).every((network) => !network.testnet)).toBe(true)
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
    expect(toCaip('bitcoin:signet')).toBe('bip122:00000008819873e925422c1ff0f99f7c')
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

  describe('with the host’s networks and the API’s chains', () => {
    const team: CustomNetwork = {
      id: 'eip155:31338',
      name: 'Team Devnet',
      rpcUrl: 'http://127.0.0.1:9546',
      explorer: { name: 'Team Scan', url: 'https://scan.team.example' },
      nativeCurrency: { name: 'Team Ether', symbol: 'TETH', decimals: 18 },
      iconUrl: 'https://icons.example/team.png',
      testnet: true,
    }
    const sonic: CustomNetwork = {
      id: 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K',
      name: 'Sonic',
      rpcUrl: 'https://rpc.sonic.example',
      nativeCurrency: { name: 'Sonic', symbol: 'S', decimals: 9 },
    }
    const apiChain = {
      id: 'eip155:7777',
      name: 'Deployment Chain',
      nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 },
    }

    it('puts a custom network in the host’s order, replacing the registry’s entry of that id', () => {
      const networks = resolve(['eip155:1', 'eip155:31338', sonic.id], { custom: [team, sonic] })
      expect(networks).toEqual([
        expect.objectContaining({ id: 'eip155:1', name: 'Ethereum' }),
        {
          id: 'eip155:31338',
          namespace: 'eip155',
          name: 'Team Devnet',
          rpcUrl: 'http://127.0.0.1:9546',
          explorer: { name: 'Team Scan', url: 'https://scan.team.example' },
          nativeCurrency: { name: 'Team Ether', symbol: 'TETH', decimals: 18 },
          iconUrl: 'https://icons.example/team.png',
          testnet: true,
        },
        {
          id: sonic.id,
          namespace: 'solana',
          name: 'Sonic',
          rpcUrl: 'https://rpc.sonic.example',
          nativeCurrency: { name: 'Sonic', symbol: 'S', decimals: 9 },
          testnet: false,
        },
      ])
      expect(addChainParameters(networks[1] as Network)).toEqual({
        chainId: '0x7a6a',
        chainName: 'Team Devnet',
        nativeCurrency: { name: 'Team Ether', symbol: 'TETH', decimals: 18 },
        rpcUrls: ['http://127.0.0.1:9546'],
        blockExplorerUrls: ['https://scan.team.example'],
      })
    })

    it('names a network only the API knows, without an RPC URL unless the host gave one', () => {
      const warn = vi.fn()
      expect(resolve(['eip155:7777'], { chains: [apiChain], warn })).toEqual([
        {
          id: 'eip155:7777',
          namespace: 'eip155',
          name: 'Deployment Chain',
          nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 },
          rpcUrl: '',
          testnet: false,
        },
      ])
      expect(warn).not.toHaveBeenCalled()
      expect(addChainParameters(find('eip155:7777', { chains: [apiChain] }) as Network).rpcUrls).toEqual([])
      const rpcUrls = { 'eip155:7777': 'https://rpc.deployment.example' }
      expect(find('eip155:7777', { chains: [apiChain], rpcUrls })?.rpcUrl).toBe(
        'https://rpc.deployment.example',
      )
      expect(find('eip155:7777', { chains: [{ ...apiChain, testnet: true }] })?.testnet).toBe(true)
    })

    it('prefers the host’s network, then the registry, then the API; the host’s rpcUrls over all', () => {
      const renamed = { ...apiChain, id: 'eip155:31338', name: 'API Name' }
      expect(find('eip155:31338', { custom: [team], chains: [renamed] })?.name).toBe('Team Devnet')
      expect(find('eip155:31338', { chains: [renamed] })?.name).toBe('Airlock Devnet B')
      expect(
        find('eip155:31338', { custom: [team], rpcUrls: { 'eip155:31338': 'https://mine.example' } })?.rpcUrl,
      ).toBe('https://mine.example')
    })

    it('still skips, with the warning, an id no source knows', () => {
      const warn = vi.fn()
      expect(
        resolve(['eip155:424242', 'eip155:7777'], { chains: [apiChain], custom: [team], warn }),
      ).toHaveLength(1)
      expect(warn).toHaveBeenCalledTimes(1)
      expect(warn).toHaveBeenCalledWith(
        '[airlock] Network eip155:424242 is not known to the modal and is skipped.',
      )
    })

    it('ignores an API chain whose id is not CAIP-2 of a namespace the modal speaks', () => {
      expect(find('cosmos:hub', { chains: [{ ...apiChain, id: 'cosmos:hub' }] })).toBeUndefined()
    })
  })

  describe('walletSupports', () => {
    const devnet = known('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')
    const mainnet = known('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
    const wallet = (chains: string[], accountChains?: string[]) => ({
      wallet: { chains },
      accounts: [{ ...(accountChains ? { chains: accountChains } : {}) }],
    })

    it('is true for a chain the wallet or its account names, false for one of its namespace it does not', () => {
      expect(walletSupports(wallet(['solana:devnet']), devnet)).toBe(true)
      expect(walletSupports(wallet(['solana:devnet']), mainnet)).toBe(false)
      expect(walletSupports(wallet([], ['solana:mainnet']), mainnet)).toBe(true)
    })

    it('takes a wallet that names no chain of the namespace at its word', () => {
      expect(walletSupports(wallet([]), mainnet)).toBe(true)
      expect(walletSupports(wallet(['bitcoin:mainnet']), mainnet)).toBe(true)
    })
  })
})
