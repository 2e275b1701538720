import type { State } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import { eip1193 } from './eip1193.ts'

const disconnected: State = { open: false, view: 'Connect', status: 'disconnected', namespaces: {} }
const on = (chainId: string, ...addresses: string[]): State => ({
  ...disconnected,
  status: 'connected',
  namespaces: { eip155: { chainId, accounts: addresses.map((address) => ({ address })) } },
})

function setup(initial = disconnected) {
  let state = initial
  const sent: unknown[] = []
  const { provider, update } = eip1193(
    async (request) => {
      sent.push(request)
      return 'from modal'
    },
    () => state,
    'eip155:1',
  )
  const events: Array<[string, unknown]> = []
  for (const name of ['connect', 'disconnect', 'accountsChanged', 'chainChanged'])
    provider.on(name, ((value: unknown) => events.push([name, value])) as never)
  const move = (next: State) => {
    const before = state
    state = next
    update(before, next)
  }
  return { provider, sent, events, move }
}

describe('EIP-1193 provider', () => {
  it('answers eth_accounts and eth_chainId from the mirrored state without a round trip', async () => {
    const { provider, sent, move } = setup()
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    move(on('eip155:31338', '0xabc'))
    expect(await provider.request({ method: 'eth_accounts' })).toEqual(['0xabc'])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a6a')
    expect(sent).toEqual([])
  })

  it('asks the modal for eth_accounts while it is still reconnecting', async () => {
    const { provider, sent } = setup({ ...disconnected, status: 'reconnecting' })
    expect(await provider.request({ method: 'eth_accounts' })).toBe('from modal')
    expect(sent).toEqual([{ namespace: 'eip155', method: 'eth_accounts' }])
  })

  it('sends every other method to the modal in the eip155 namespace', async () => {
    const { provider, sent } = setup()
    expect(await provider.request({ method: 'personal_sign', params: ['0x00', '0xabc'] })).toBe('from modal')
    expect(sent).toEqual([{ namespace: 'eip155', method: 'personal_sign', params: ['0x00', '0xabc'] }])
  })

  it('derives connect, accountsChanged, chainChanged and disconnect from state changes', () => {
    const { events, move } = setup()
    move(on('eip155:31337', '0xabc'))
    move(on('eip155:31338', '0xabc'))
    move(on('eip155:31338', '0xdef'))
    move(on('eip155:31338', '0xdef'))
    move(disconnected)
    expect(events).toEqual([
      ['connect', { chainId: '0x7a69' }],
      ['accountsChanged', ['0xabc']],
      ['chainChanged', '0x7a6a'],
      ['accountsChanged', ['0xdef']],
      ['accountsChanged', []],
      ['disconnect', { code: 4900, message: 'The Provider is disconnected from all chains.' }],
    ])
  })

  it('keeps calling listeners when one throws, and stops calling removed ones', () => {
    const { provider, move } = setup()
    const seen: string[] = []
    const bad = () => {
      throw new Error('dApp bug')
    }
    const good = () => seen.push('good')
    provider.on('accountsChanged', bad).on('accountsChanged', good)
    const error = console.error
    console.error = () => {}
    move(on('eip155:1', '0xabc'))
    console.error = error
    provider.removeListener('accountsChanged', good)
    move(on('eip155:1', '0xdef'))
    expect(seen).toEqual(['good'])
  })
})
