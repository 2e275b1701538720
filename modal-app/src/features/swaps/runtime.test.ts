import { type Config, type Database, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { closedPort } from '@airlock/api/testing'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Api from '../../api/Api.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import * as Snackbar from '../../core/Snackbar.ts'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import { type SwapSlice, type SwapUi, setup } from './runtime.ts'
import { swapTexts } from './texts.ts'

const network = find('eip155:31337') as Network
const address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

/** The real API, serving a chain whose configuration names no DEX (its node is never asked). */
let running: Awaited<ReturnType<typeof Service.listen>>
let db: Database.Database
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  const config: Config.Config = {
    apiUrl: 'http://127.0.0.1:0',
    modalOrigin: 'http://127.0.0.1:5174',
    chains: [
      {
        id: network.id,
        name: network.name,
        rpcUrl: `http://127.0.0.1:${await closedPort()}`,
        nativeCurrency: network.nativeCurrency,
      },
    ],
  }
  running = await Service.listen(Service.create({ db, config }), { apiPort: 0 })
})
afterAll(async () => {
  await running?.stop()
  await db?.close()
})

function start(namespace: 'eip155' | 'solana') {
  const connection: Connection = {
    wallet: { id: 'w', namespace, name: 'W', icon: '', chains: [network.id] },
    accounts: [{ address }],
    chainId: network.id,
  }
  const api = Api.create({ baseUrl: running.apiUrl, projectId: 'demo' })
  const kernel = {
    activeNamespace: () => namespace,
    connectionOf: (asked: string) => (asked === namespace ? connection : undefined),
    configured: (id?: string) => (id === network.id ? network : undefined),
    api: { balances: async () => [], endpoint: api.endpoint },
    router: { send: vi.fn(), view: () => 'Swap', isOpen: () => true },
    snackbar: Snackbar.create({ onChange: () => {} }),
    timers: Snackbar.realTimers,
    now: () => Date.now(),
    changed: vi.fn(),
    shake: vi.fn(),
    transacted: vi.fn(),
    walletRequest: async () => null,
    track: vi.fn(),
  } as unknown as Kernel
  const runtime = setup(kernel)
  const snapshot = () => {
    const slice = runtime.snapshot?.() as SwapSlice | undefined
    if (!slice) throw new Error('Swap answers no snapshot')
    return slice.swap
  }
  return { ui: runtime.ui as SwapUi, snapshot }
}

describe('Swap where swaps cannot run', () => {
  it('tells a Solana account that swaps are not for its network, without asking the API', async () => {
    const fetched = vi.spyOn(globalThis, 'fetch')
    const { ui, snapshot } = start('solana')
    ui.showSwap()
    await vi.waitFor(() => expect(snapshot().unsupported).toBe('Network not supported for Swaps'))
    expect(fetched).not.toHaveBeenCalled()
    fetched.mockRestore()
  })

  it('says the product’s words (docs/behaviour.md §8) where the API serves the chain but has no swaps for it', async () => {
    const { ui, snapshot } = start('eip155')
    ui.showSwap()
    await vi.waitFor(() => expect(snapshot().loading).toBe(false))
    expect(snapshot().unsupported).toBe(swapTexts.unsupported)
    expect(snapshot().tokens).toEqual([])
  })
})
