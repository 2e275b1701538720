import { describe, expect, it, vi } from 'vitest'
import type * as Api from '../../api/Api.ts'
import { compose } from '../../compose.ts'
import type { Config } from '../../core/Config.ts'
import { create as createStorage, memory } from '../../core/Storage.ts'
import { isTab, tabAfter } from './tabs.ts'

describe('tabAfter', () => {
  it('moves to the neighbour with the arrow keys, wrapping at both ends', () => {
    expect(tabAfter('tokens', 'ArrowRight')).toBe('nfts')
    expect(tabAfter('nfts', 'ArrowRight')).toBe('activity')
    expect(tabAfter('activity', 'ArrowRight')).toBe('tokens')
    expect(tabAfter('tokens', 'ArrowLeft')).toBe('activity')
    expect(tabAfter('activity', 'ArrowLeft')).toBe('nfts')
  })

  it('goes to the first and last with Home and End, and nowhere with another key', () => {
    expect(tabAfter('nfts', 'Home')).toBe('tokens')
    expect(tabAfter('tokens', 'End')).toBe('activity')
    expect(tabAfter('nfts', 'Enter')).toBeUndefined()
    expect(tabAfter('nfts', 'ArrowDown')).toBeUndefined()
  })

  it('knows its tabs from other values', () => {
    expect(isTab('activity')).toBe(true)
    expect(isTab('Activity')).toBe(false)
    expect(isTab(undefined)).toBe(false)
  })
})

// Every feature's logic is a dynamic import: the modal is ready once the account's tab state is there.
const loaded = (modal: ReturnType<typeof modalWith>) =>
  vi.waitFor(() => expect(modal.getSnapshot().accountTab).toBeDefined())

function modalWith(
  config: Config,
  reads: Partial<Pick<Api.Client, 'history' | 'identity'>> = {},
  now: () => number = Date.now,
) {
  const refuse = () => Promise.reject(new Error('not used'))
  return compose({
    config,
    storage: createStorage(memory()),
    loadRegistry: () => import('../../shared/networks.ts'),
    loadChainClient: refuse,
    api: {
      balances: refuse,
      wallets: refuse,
      imageUrl: () => '',
      track: async () => {},
      nonce: refuse,
      signIn: refuse,
      sessions: refuse,
      ...reads,
    },
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    now,
  })
}

describe('the account tab state', () => {
  it('starts on Tokens and keeps the chosen tab while the modal closes and opens again', async () => {
    const modal = modalWith({ networks: ['eip155:31337'] })
    await loaded(modal)
    expect(modal.getSnapshot().accountTab).toBe('tokens')
    modal.api.open(undefined)
    modal.ui.selectTab('activity')
    expect(modal.getSnapshot().accountTab).toBe('activity')
    modal.api.close(undefined)
    expect(modal.getSnapshot().open).toBe(false)
    modal.api.open(undefined)
    expect(modal.getSnapshot().accountTab).toBe('activity')
  })

  it('reads the history of the account asked about, on its chain', async () => {
    const calls: unknown[][] = []
    const modal = modalWith(
      { networks: ['eip155:31337'] },
      {
        history: async (...args) => {
          calls.push(args)
          return { data: [], next: null }
        },
      },
    )
    await loaded(modal)
    await modal.ui.history({ address: '0xabc', chainId: 'eip155:31337' }, 'c1')
    expect(calls).toEqual([['0xabc', { chainId: 'eip155:31337', cursor: 'c1' }]])
  })

  it("answers 'Failed to fetch transactions' when the API client reads no history", async () => {
    const modal = modalWith({ networks: ['eip155:31337'] })
    await loaded(modal)
    const page = await modal.ui.history({ address: '0xabc', chainId: 'eip155:31337' })
    expect(page).toEqual({ data: [], next: null, error: 'Failed to fetch transactions' })
  })
})

describe("the Activity tab's names", () => {
  const alice = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const bob = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

  it('names the counterparties the API knows, asking each at most once in 5 minutes', async () => {
    let time = 0
    const asked: string[] = []
    const identity = async (address: string) => {
      asked.push(address)
      return { name: address === alice.toLowerCase() ? 'alice.eth' : null, avatar: null }
    }
    const modal = modalWith({ networks: ['eip155:31337'] }, { identity }, () => time)
    await loaded(modal)
    const wanted = [alice.toLowerCase(), bob.toLowerCase()]
    expect(await modal.ui.namesOf(wanted)).toEqual({ [alice.toLowerCase()]: 'alice.eth' })
    // The list refreshes every 4 s: the cache answers.
    time += 299_999
    expect(await modal.ui.namesOf(wanted)).toEqual({ [alice.toLowerCase()]: 'alice.eth' })
    expect(asked).toEqual(wanted)
    time += 1
    await modal.ui.namesOf(wanted)
    expect(asked).toHaveLength(4)
  })

  it('answers no names, and throws nothing, when the API fails or reads no identities', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const failing = modalWith(
      { networks: ['eip155:31337'] },
      { identity: () => Promise.reject(new Error('502')) },
    )
    const without = modalWith({ networks: ['eip155:31337'] })
    await Promise.all([loaded(failing), loaded(without)])
    expect(await failing.ui.namesOf([alice])).toEqual({})
    expect(await without.ui.namesOf([alice])).toEqual({})
    warn.mockRestore()
  })
})

describe('the Receive switch', () => {
  it('offers Receive unless the host switched it off with features.receive', async () => {
    const on = modalWith({ networks: ['eip155:31337'] })
    const off = modalWith({ networks: ['eip155:31337'], features: { receive: false } })
    await Promise.all([loaded(on), loaded(off)])
    expect(on.views.has('Receive')).toBe(true)
    // The Account view offers the button only where a feature has the action.
    expect('showReceive' in on.ui).toBe(true)
    expect(off.views.has('Receive')).toBe(false)
    expect('showReceive' in off.ui).toBe(false)
  })
})
