import { Async, type PageWallet } from '@airlock/bridge-protocol'
import { describe, expect, it, vi } from 'vitest'
import type { Connector, ConnectorContext } from '../connectors/Connector.ts'
import type { Connection } from './Connection.ts'
import * as Connections from './Connections.ts'
import { create as createStorage, memory, type Storage } from './Storage.ts'

const icon = 'data:image/svg+xml,<svg/>'
const wallet = (id: string, namespace: PageWallet['namespace'] = 'eip155'): PageWallet => ({
  id,
  namespace,
  name: id,
  icon,
  chains: [],
})
const addressOf = (id: string) => `0x${id.replace(/\W/g, '').padStart(40, '0').slice(-40)}`

/** A connector that owns `fake:` wallets, connects at once, and records its disconnects. */
function fakeConnector(context: ConnectorContext) {
  const disconnects: { namespace: string; others: number }[] = []
  const connector: Connector = {
    id: 'fake',
    type: 'WALLET_CONNECT',
    owns: (w) => w.id.startsWith('fake:'),
    announced: false,
    restore: (key, namespace) => wallet(`fake:${key.name}`, namespace),
    connect: async (w) => ({
      wallet: w,
      accounts: [{ address: addressOf(w.id) }],
      chainId: `${w.namespace}:1`,
    }),
    disconnect: async (connection, others) => {
      disconnects.push({ namespace: connection.wallet.namespace, others: others.length })
    },
    request: async () => null,
  }
  return { context, connector, disconnects }
}

function setup(storage: Storage = createStorage(memory())) {
  let fake: ReturnType<typeof fakeConnector> | undefined
  const connections = Connections.create({
    storage,
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    reconnectTimeout: 1_000,
    walletGrace: 10,
    networks: () => [],
    namespaces: () => new Set(['eip155', 'solana']),
    fallbackIn: () => undefined,
    chosenNamespace: () => undefined,
    changed: () => {},
    onTransition: () => {},
  })
  connections.add((context) => {
    fake = fakeConnector(context)
    return fake.connector
  })
  connections.run()
  return { connections, fake: fake as ReturnType<typeof fakeConnector>, storage }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

describe('connections', () => {
  it('does not apply a wallet-side change once the visitor has replaced that wallet', async () => {
    const { connections, fake } = setup()
    connections.send('eip155', { type: 'CONNECT', wallet: wallet('fake:a') })
    await settle()
    const gate = Async.deferred<void>()
    fake.context.update('eip155', 'fake:a', async () => {
      await gate.promise
      return { type: 'accountsChanged', accounts: [{ address: addressOf('stale') }] }
    })
    connections.send('eip155', { type: 'CONNECT', wallet: wallet('fake:b') })
    await settle()
    gate.resolve()
    await settle()
    const connection = connections.connectionOf('eip155') as Connection
    expect(connection.wallet.id).toBe('fake:b')
    expect(connection.accounts).toEqual([{ address: addressOf('fake:b') }])
  })

  it('ends a session that serves two namespaces on the wallet’s side when the last of them goes', async () => {
    const { connections, fake } = setup()
    connections.send('eip155', { type: 'CONNECT', wallet: wallet('fake:p', 'eip155') })
    connections.send('solana', { type: 'CONNECT', wallet: wallet('fake:p', 'solana') })
    await settle()
    await connections.disconnectAll()
    expect(fake.disconnects).toEqual([
      { namespace: 'eip155', others: 1 },
      { namespace: 'solana', others: 0 },
    ])
    expect(connections.anyConnected()).toBe(false)
  })

  it('lists no page wallet whose id another connector owns: the host page cannot pose as one', () => {
    const { connections } = setup()
    connections.setWallets([wallet('fake:impostor'), wallet('eip6963:1')])
    expect(connections.wallets().map((w) => w.id)).toEqual(['eip6963:1'])
  })

  it('reconnects a stored connection through the connector that made it, and waits for no page wallet', async () => {
    const storage = createStorage(memory())
    storage.addConnection({ namespace: 'eip155', name: 'p', connector: 'fake' })
    // A connection made by a connector that is off here (no WalletConnect project id) has nothing to wait for.
    storage.addConnection({ namespace: 'solana', rdns: 'com.walletconnect', name: 'Phone', connector: 'off' })
    const { connections } = setup(storage)
    const listWallets = vi.fn(async () => [])
    await connections.attach({ listWallets } as never)
    // Timers never fire here: a wait for a page wallet to announce itself would never end.
    await connections.reconnect(new Set(['eip155', 'solana']), 10)
    expect(connections.connectionOf('eip155')?.wallet.id).toBe('fake:p')
    expect(connections.connectionOf('solana')).toBeUndefined()
  })
})
