/**
 * The active namespace after one wallet connects several at once (an embedded login, a WalletConnect session
 * approving EVM and Solana, either reconnecting after a reload): the dApp stays on the namespace it was on,
 * whichever connects last, and the host's state says what the Account view shows.
 */
import { Async, type Caip, type PageWallet, type State } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { Connector, ConnectorContext, Host } from '../connectors/Connector.ts'
import type { Connection } from './Connection.ts'
import * as Modal from './Modal.ts'
import { create as createStorage, memory, type Storage } from './Storage.ts'

const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const solAddress = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q'
const networks = ['eip155:31337', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'] as const

const walletIn = (namespace: Caip.Namespace): PageWallet => ({
  id: 'pair',
  namespace,
  name: 'Pair',
  icon: 'data:image/svg+xml,<svg/>',
  chains: [],
})

/**
 * A wallet that serves EVM and Solana, as the embedded wallet and a WalletConnect session do: each namespace's
 * connect waits until the test lets it finish, so the test decides which connects last.
 */
function pairFeature() {
  let context: ConnectorContext | undefined
  const pending = new Map<Caip.Namespace, Async.Deferred<void>>()
  const fallbacks: [Caip.Namespace, Caip.ChainId | undefined][] = []
  const gate = (namespace: Caip.Namespace) => {
    const deferred = pending.get(namespace) ?? Async.deferred<void>()
    pending.set(namespace, deferred)
    return deferred
  }
  const connector: Connector = {
    id: 'pair',
    type: 'AUTH',
    owns: (wallet) => wallet.id === 'pair',
    announced: false,
    restore: (key, namespace) => (key.connector === 'pair' ? walletIn(namespace) : undefined),
    async connect(wallet, { fallback }): Promise<Connection> {
      fallbacks.push([wallet.namespace, fallback])
      await gate(wallet.namespace).promise
      const address = wallet.namespace === 'eip155' ? evmAddress : solAddress
      const chainId = networks.find((id) => id.startsWith(`${wallet.namespace}:`)) as Caip.ChainId
      return { wallet, accounts: [{ address }], chainId }
    },
    disconnect: async () => {},
    request: async () => null,
  }
  return {
    feature: {
      id: 'pair',
      async load(kernel: { addConnector(factory: (context: ConnectorContext) => Connector): void }) {
        kernel.addConnector((given) => {
          context = given
          return connector
        })
        return {}
      },
    },
    /** The wallet approved both namespaces, as a login or a session approval tells the core. */
    approve() {
      for (const namespace of ['eip155', 'solana'] as const) context?.approved(walletIn(namespace))
    },
    finish: (namespace: Caip.Namespace) => gate(namespace).resolve(),
    fallbacks,
  }
}

async function setup(storage: Storage = createStorage(memory())) {
  const pair = pairFeature()
  const states: State[] = []
  const host = {
    listWallets: vi.fn(async () => []),
    walletRequest: vi.fn(async () => null),
    setState: vi.fn(async (state: State) => void states.push(state)),
    resize: vi.fn(async () => undefined),
    ping: vi.fn(async () => 'pong' as const),
  }
  const modal = Modal.create({
    config: { networks: [...networks] },
    storage,
    api: {
      balances: async () => [],
      wallets: async () => ({ count: 0, data: [] }),
      imageUrl: () => '',
      track: async () => {},
      nonce: async () => 'n0nce1234',
      signIn: () => Promise.reject(new Error('not used')),
      sessions: async () => [],
    },
    loadRegistry: () => import('../shared/networks.ts'),
    features: [pair.feature as never],
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    walletGrace: 10,
  })
  const started = modal.start({ host: host as unknown as Host, origin: 'http://localhost:5173' })
  return { modal, pair, states, storage, started, last: () => states.at(-1) as State }
}

const settle = async () => {
  for (let i = 0; i < 8; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

/** What the host's state (its getState and events follow it) and the Account view say is active. */
function active(context: Awaited<ReturnType<typeof setup>>) {
  const state = context.last()
  return {
    caipNetworkId: state.caipNetworkId,
    address: state.address,
    account: context.modal.getSnapshot().account?.namespace,
    // Every state the host was given while connected: on the way too, no other namespace was the active one.
    reported: [
      ...new Set(
        context.states.filter((s) => s.status === 'connected').map((s) => s.caipNetworkId?.split(':')[0]),
      ),
    ],
  }
}

const onEvm = { caipNetworkId: 'eip155:31337', address: evmAddress, account: 'eip155', reported: ['eip155'] }

describe('active namespace after a connection of several namespaces', () => {
  it.each([
    ['Solana last', ['eip155', 'solana']],
    ['EVM last', ['solana', 'eip155']],
  ] as const)('leaves a dApp on its first configured network on EVM (%s)', async (_, order) => {
    const context = await setup()
    await context.started
    context.pair.approve()
    for (const namespace of order) {
      context.pair.finish(namespace)
      await settle()
    }
    expect(Object.keys(context.last().namespaces).sort()).toEqual(['eip155', 'solana'])
    expect(active(context)).toEqual(onEvm)
    expect(context.storage.getActiveNetwork()).toBe('eip155:31337')
    // Each namespace was offered a network of its own, never the other's.
    for (const [namespace, fallback] of context.pair.fallbacks)
      expect(fallback?.split(':')[0]).toBe(namespace)
  })

  it('leaves a dApp that chose Solana on Solana', async () => {
    const storage = createStorage(memory())
    storage.setActiveNetwork(networks[1])
    const context = await setup(storage)
    await context.started
    context.pair.approve()
    context.pair.finish('eip155')
    context.pair.finish('solana')
    await settle()
    expect(active(context)).toEqual({
      caipNetworkId: networks[1],
      address: solAddress,
      account: 'solana',
      reported: ['solana'],
    })
    expect(context.pair.fallbacks).toEqual([
      ['eip155', 'eip155:31337'],
      ['solana', networks[1]],
    ])
  })

  it('reconnects both after a reload with the dApp on EVM, whichever answers first', async () => {
    const storage = createStorage(memory())
    for (const namespace of ['eip155', 'solana'] as const)
      storage.addConnection({ namespace, name: 'Pair', connector: 'pair' })
    const context = await setup(storage)
    await settle()
    context.pair.finish('solana')
    await settle()
    context.pair.finish('eip155')
    await context.started
    await settle()
    expect(active(context)).toEqual(onEvm)
    expect(storage.getActiveNetwork()).toBe('eip155:31337')
  })
})
