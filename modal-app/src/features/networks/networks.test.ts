import { Errors, type PageWallet, type Request, type State } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { SupportedChain } from '../../api/Api.ts'
import { compose } from '../../compose.ts'
import type { Host } from '../../connectors/Connector.ts'
import type { Config } from '../../core/Config.ts'
import { create as createStorage, memory } from '../../core/Storage.ts'
import type { NetworksSlice } from './types.ts'

const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const solAddress = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q'
const icon = 'data:image/svg+xml,<svg/>'
const devnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const testnet = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'
const mainnet = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const evmWallet: PageWallet = { id: 'eip6963:1', namespace: 'eip155', name: 'Test EVM', icon, chains: [] }
// A Wallet Standard wallet that lists the clusters it serves: devnet and testnet, not mainnet.
const solWallet: PageWallet = {
  id: 'standard:sol',
  namespace: 'solana',
  name: 'Test Solana',
  icon,
  chains: ['solana:devnet', 'solana:testnet'],
}
const team = {
  id: 'eip155:31338' as const,
  name: 'Team Devnet',
  rpcUrl: 'http://127.0.0.1:8546',
  nativeCurrency: { name: 'Team Ether', symbol: 'TETH', decimals: 18 },
  iconUrl: 'https://icons.example/team.png',
  testnet: true,
}
const deployment: SupportedChain = {
  id: 'eip155:7777',
  name: 'Deployment Chain',
  nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 },
}

function setup(config: Config) {
  const evm = { chainId: 31337, known: new Set([31337]) }
  const calls: Request[] = []
  const states: State[] = []
  const host = {
    listWallets: vi.fn(async () => [evmWallet, solWallet]),
    walletRequest: vi.fn(async ({ request }: { walletId: string; request: Request }) => {
      calls.push(request)
      const params = 'params' in request ? (request.params as [{ chainId: string }]) : []
      switch (request.method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [evmAddress]
        case 'eth_chainId':
          return `0x${evm.chainId.toString(16)}`
        case 'wallet_switchEthereumChain':
          if (!evm.known.has(Number(params[0].chainId))) throw new Errors.UnrecognizedChainError()
          evm.chainId = Number(params[0].chainId)
          return null
        case 'wallet_addEthereumChain':
          evm.known.add(Number(params[0].chainId))
          return null
        case 'standard:connect':
          return {
            accounts: [{ address: solAddress, publicKey: new Uint8Array(32), chains: ['solana:devnet'] }],
          }
      }
      return null
    }),
    setState: vi.fn(async (state: State) => void states.push(state)),
    resize: vi.fn(async () => undefined),
    ping: vi.fn(async () => 'pong' as const),
  }
  const api = {
    balances: async () => [],
    wallets: async () => ({ count: 0, data: [] }),
    imageUrl: () => '',
    track: async () => {},
    nonce: async () => 'n0nce1234',
    signIn: () => Promise.reject(new Error('not used')),
    sessions: async () => [],
    supportedChains: vi.fn(async () => [deployment]),
  }
  // The snackbar's timers, run by hand: `swap()` shows the snack that waits for the one before to go.
  let next = 0
  const timers = new Map<number, { callback: () => void; ms: number }>()
  const swap = () => {
    // The snackbar's swap, docs/behaviour.md §9.
    for (const [id, timer] of timers)
      if (timer.ms === 150) {
        timers.delete(id)
        timer.callback()
      }
  }
  const modal = compose({
    config,
    storage: createStorage(memory()),
    loadRegistry: () => import('../../shared/networks.ts'),
    loadChainClient: async () => ({ waitForReceipt: async () => {} }),
    api,
    timers: {
      setTimeout: (callback, ms) => {
        timers.set(++next, { callback, ms })
        return next
      },
      clearTimeout: (id) => void timers.delete(id as number),
    },
    walletGrace: 20,
  })
  const start = () => modal.start({ host: host as unknown as Host, origin: 'http://localhost:5173' })
  const snapshot = () => modal.getSnapshot() as ReturnType<typeof modal.getSnapshot> & NetworksSlice
  return { modal, host, api, calls, evm, states, start, snapshot, swap }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

async function connect(context: ReturnType<typeof setup>, wallet: PageWallet) {
  context.modal.api.open(undefined)
  context.modal.ui.selectWallet(wallet)
  await vi.waitFor(() => expect(context.modal.getSnapshot().view).not.toBe('ConnectingExternal'))
  await settle()
}

const groupsOf = (snapshot: NetworksSlice) =>
  snapshot.networkGroups.map(({ namespace, networks, current }) => ({
    namespace,
    networks: networks.map((network) => `${network.name}${network.testnet ? ' (testnet)' : ''}`),
    current,
  }))

describe('networks from configuration', () => {
  it('asks the API to name a network no other source knows only once the modal opens', async () => {
    const context = setup({ networks: ['eip155:31337', 'eip155:7777'] })
    await context.start()
    await settle()
    expect(context.api.supportedChains).not.toHaveBeenCalled()
    expect(context.snapshot().networks.map((network) => network.name)).toEqual(['Airlock Devnet A'])

    context.modal.api.open({ view: 'Networks' })
    await settle()
    expect(context.api.supportedChains).toHaveBeenCalledTimes(1)
    expect(groupsOf(context.snapshot())).toEqual([
      {
        namespace: 'eip155',
        networks: ['Airlock Devnet A (testnet)', 'Deployment Chain'],
        current: 'eip155:31337',
      },
    ])
    // Opened again: nothing left to name, nothing asked.
    context.modal.api.close(undefined)
    context.modal.api.open(undefined)
    await settle()
    expect(context.api.supportedChains).toHaveBeenCalledTimes(1)
  })

  it('asks it while the frame is hidden once prepared, so the first open has the names in place', async () => {
    const context = setup({ networks: ['eip155:31337', 'eip155:7777'] })
    // Prepared before the registry is in (the frame's idle time may come first): named once it is.
    context.modal.prepare()
    await context.start()
    await settle()
    expect(context.api.supportedChains).toHaveBeenCalledTimes(1)
    expect(context.modal.getSnapshot().open).toBe(false)
    expect(context.snapshot().networks.map((network) => network.name)).toEqual([
      'Airlock Devnet A',
      'Deployment Chain',
    ])
    context.modal.api.open(undefined)
    await settle()
    expect(context.api.supportedChains).toHaveBeenCalledTimes(1)
  })

  it('groups every configured network by namespace, the host’s own by its name, each namespace’s current marked', async () => {
    const context = setup({
      networks: [
        devnet,
        'eip155:31337',
        'eip155:31338',
        'bip122:000000000019d6689c085ae165831e93',
        'eip155:1',
      ],
      customNetworks: [team],
    })
    await context.start()
    await connect(context, evmWallet)
    expect(groupsOf(context.snapshot())).toEqual([
      {
        namespace: 'eip155',
        networks: ['Airlock Devnet A (testnet)', 'Team Devnet (testnet)', 'Ethereum'],
        current: 'eip155:31337',
      },
      { namespace: 'solana', networks: ['Solana Devnet (testnet)'], current: devnet },
      { namespace: 'bip122', networks: ['Bitcoin'], current: 'bip122:000000000019d6689c085ae165831e93' },
    ])
    expect(context.snapshot().networkGroups[0]?.networks[1]?.iconUrl).toBe(team.iconUrl)
  })

  it('switches an EVM wallet to the host’s own network, adding it with the host’s metadata first', async () => {
    const context = setup({ networks: ['eip155:31337', 'eip155:31338'], customNetworks: [team] })
    await context.start()
    await connect(context, evmWallet)
    context.modal.ui.showNetworks()
    await context.modal.ui.switchNetwork('eip155:31338')
    expect(context.calls).toContainEqual({
      namespace: 'eip155',
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId: '0x7a6a',
          chainName: 'Team Devnet',
          nativeCurrency: team.nativeCurrency,
          rpcUrls: [team.rpcUrl],
        },
      ],
    })
    expect(context.snapshot().account?.network?.name).toBe('Team Devnet')
    expect(context.states.at(-1)?.caipNetworkId).toBe('eip155:31338')
  })

  it('moves a Solana connection to a cluster its wallet serves, and refuses one it does not, by name', async () => {
    const context = setup({ networks: [devnet, testnet, mainnet] })
    await context.start()
    await connect(context, solWallet)
    expect(context.snapshot().account?.chainId).toBe(devnet)

    context.modal.ui.showNetworks()
    await context.modal.ui.switchNetwork(mainnet)
    context.swap()
    expect(context.snapshot().snackbar).toMatchObject({
      variant: 'error',
      message: 'Test Solana does not support Solana.',
    })
    expect(context.snapshot().account?.chainId).toBe(devnet)

    await context.modal.ui.switchNetwork(testnet)
    expect(context.snapshot().account?.chainId).toBe(testnet)
    expect(context.snapshot().networkGroups[0]?.current).toBe(testnet)
    await expect(context.modal.api.switchNetwork({ caipNetworkId: mainnet })).rejects.toMatchObject({
      code: 5710,
      message: 'Test Solana does not support Solana.',
    })
  })

  it('makes a network of a namespace with no account the one that namespace connects on', async () => {
    const context = setup({ networks: ['eip155:31337', devnet, testnet] })
    await context.start()
    await connect(context, evmWallet)
    context.modal.ui.showNetworks()
    await context.modal.ui.switchNetwork(testnet)
    expect(context.snapshot().networkGroups.find((entry) => entry.namespace === 'solana')?.current).toBe(
      testnet,
    )
    // The account shown stays the EVM one, and no wallet was asked anything about Solana.
    expect(context.snapshot().account?.namespace).toBe('eip155')
    expect(context.calls.some((call) => call.namespace === 'solana')).toBe(false)
  })

  it('names the chain an EVM wallet moved to that the app does not support: by name, else by id', async () => {
    const context = setup({ networks: ['eip155:31337'] })
    await context.start()
    await connect(context, evmWallet)
    await context.modal.api.walletEvent({ walletId: evmWallet.id, type: 'chainChanged', chainId: '0x2105' })
    await settle()
    expect(context.snapshot().view).toBe('UnsupportedChain')
    expect(context.snapshot().unsupportedNetwork).toBe('Base')
    await context.modal.api.walletEvent({ walletId: evmWallet.id, type: 'chainChanged', chainId: '0x67932' })
    await settle()
    expect(context.snapshot().unsupportedNetwork).toBe('eip155:424242')
  })
})
