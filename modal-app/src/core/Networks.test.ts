import { Async, type Caip } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { NamedChain } from '../shared/Network.ts'
import * as Registry from '../shared/networks.ts'
import type { Connection } from './Connection.ts'
import * as Networks from './Networks.ts'
import { create as createStorage } from './Storage.ts'

const deployment: NamedChain = {
  id: 'eip155:7777',
  name: 'Deployment Chain',
  nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 },
}
const sonic = 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K'

function setup(
  ids: string[],
  options: {
    chains?: () => Promise<readonly NamedChain[]>
    connections?: Partial<Record<Caip.Namespace, Connection>>
  } = {},
) {
  const storage = createStorage()
  const changed = vi.fn()
  const networks = Networks.create({
    ids,
    storage,
    connectionOf: (namespace) => options.connections?.[namespace],
    changed,
    chains: options.chains,
  })
  return { networks, storage, changed }
}

const names = (networks: Networks.Networks) => networks.list().map((network) => network.name)

describe('Networks', () => {
  it('leaves an id only the API may know waiting, its namespace counted, until the modal is opened', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const chains = vi.fn(async () => [deployment])
    const { networks, changed } = setup(['eip155:31337', sonic, 'eip155:7777'], { chains })
    networks.load(Registry)
    expect(names(networks)).toEqual(['Airlock Devnet A'])
    expect([...networks.namespaces()]).toEqual(['eip155', 'solana'])
    expect(chains).not.toHaveBeenCalled()
    expect(warn).not.toHaveBeenCalled()

    expect(await networks.name()).toBe(true)
    expect(chains).toHaveBeenCalledTimes(1)
    expect(names(networks)).toEqual(['Airlock Devnet A', 'Deployment Chain'])
    expect(networks.configured('eip155:7777')?.nativeCurrency.symbol).toBe('GAS')
    // Known nowhere: skipped with the registry's warning, and its namespace is gone.
    expect(warn).toHaveBeenCalledWith(`[airlock] Network ${sonic} is not known to the modal and is skipped.`)
    expect([...networks.namespaces()]).toEqual(['eip155'])
    expect(changed).toHaveBeenCalled()
    // Nothing left to name: the API is not asked again.
    expect(await networks.name()).toBe(false)
    expect(chains).toHaveBeenCalledTimes(1)
    warn.mockRestore()
  })

  it('never asks the API when the registry and the host know every configured id', async () => {
    const chains = vi.fn(async () => [deployment])
    const { networks } = setup(['eip155:31337', 'eip155:11155111'], { chains })
    networks.load(Registry)
    expect(await networks.name()).toBe(false)
    expect(chains).not.toHaveBeenCalled()
    expect(names(networks)).toEqual(['Airlock Devnet A', 'Sepolia'])
  })

  it('asks once while a naming is under way, and again at the next open after a failure', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const answer = Async.deferred<readonly NamedChain[]>()
    const chains = vi.fn().mockRejectedValueOnce(new Error('down')).mockReturnValueOnce(answer.promise)
    const { networks } = setup(['eip155:7777'], { chains })
    networks.load(Registry)
    expect(await networks.name()).toBe(false)
    expect(warn).toHaveBeenCalledWith(
      '[airlock] Could not ask the API which chains it serves.',
      expect.any(Error),
    )
    expect([...networks.namespaces()]).toEqual(['eip155'])
    const first = networks.name()
    const second = networks.name()
    answer.resolve([deployment])
    expect(await first).toBe(true)
    expect(await second).toBe(true)
    expect(chains).toHaveBeenCalledTimes(2)
    expect(names(networks)).toEqual(['Deployment Chain'])
    warn.mockRestore()
  })

  it('skips an unknown id at once, with the warning, when there is no API to ask', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { networks } = setup(['eip155:7777', 'eip155:1'])
    networks.load(Registry)
    expect(names(networks)).toEqual(['Ethereum'])
    expect(warn).toHaveBeenCalledWith(
      '[airlock] Network eip155:7777 is not known to the modal and is skipped.',
    )
    warn.mockRestore()
  })

  it('keeps a stored choice of a network the API names later', async () => {
    const { networks, storage } = setup(['eip155:31337', 'eip155:7777'], { chains: async () => [deployment] })
    storage.setActiveNetwork('eip155:7777')
    networks.load(Registry)
    await networks.name()
    expect(networks.activeId()).toBe('eip155:7777')
    expect(networks.evmChainId()).toBe('eip155:7777')
  })

  it('knows the network of any source by id, configured or not, to name a wallet’s chain', () => {
    const { networks } = setup(['eip155:31337'])
    networks.load(Registry)
    expect(networks.known('eip155:8453')?.name).toBe('Base')
    expect(networks.configured('eip155:8453')).toBeUndefined()
    expect(networks.known('eip155:424242')).toBeUndefined()
  })

  it('keeps a current network per namespace: the account’s, else the one chosen there, else the first', () => {
    const evm: Connection = {
      wallet: { id: 'w', namespace: 'eip155', name: 'W', icon: '', chains: [] },
      accounts: [{ address: '0x' }],
      chainId: 'eip155:31338',
    }
    const ids = [
      'eip155:31337',
      'eip155:31338',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
    ]
    const { networks } = setup(ids, { connections: { eip155: evm } })
    networks.load(Registry)
    expect(networks.currentIn('eip155')).toBe('eip155:31338')
    expect(networks.currentIn('solana')).toBe('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')
    expect(networks.currentIn('bip122')).toBeUndefined()
    networks.setActive('solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z')
    expect(networks.currentIn('solana')).toBe('solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z')
    // The account stays the EVM one: Solana has none.
    expect(networks.activeNamespace()).toBe('eip155')
    expect(networks.current()).toBe('eip155:31338')
  })

  it('answers eth_chainId with the EVM network chosen last, though a Solana one was chosen after', () => {
    const ids = ['eip155:31337', 'eip155:31338', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1']
    const { networks } = setup(ids)
    networks.load(Registry)
    networks.setActive('eip155:31338')
    networks.setActive('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')
    expect(networks.evmChainId()).toBe('eip155:31338')
  })
})
