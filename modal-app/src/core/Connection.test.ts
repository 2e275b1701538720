import type { PageWallet } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import { initialTransition, transition } from 'xstate'
import {
  type Connection,
  type ConnectionEvent,
  type ConnectionSnapshot,
  machine,
  statusOf,
} from './Connection.ts'

const icon = 'data:image/svg+xml,<svg/>'
const metamask: PageWallet = {
  id: 'a',
  namespace: 'eip155',
  name: 'MetaMask',
  icon,
  rdns: 'io.metamask',
  chains: [],
}
const rabby: PageWallet = { id: 'b', namespace: 'eip155', name: 'Rabby', icon, rdns: 'io.rabby', chains: [] }
const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const connectionOf = (wallet: PageWallet): Connection => ({
  wallet,
  accounts: [{ address }],
  chainId: 'eip155:31337',
})

type Effect = { type: string; params?: unknown }

function start(): ConnectionSnapshot {
  return initialTransition(machine, { namespace: 'eip155' })[0]
}

function run(snapshot: ConnectionSnapshot, ...events: ConnectionEvent[]) {
  let state = snapshot
  const effects: Effect[] = []
  for (const event of events) {
    const [next, actions] = transition(machine, state, event)
    state = next
    effects.push(...actions.map(({ type, params }) => (params === undefined ? { type } : { type, params })))
  }
  return { state, status: statusOf(state), value: state.value, effects, context: state.context }
}

describe('connection: startup and reconnect', () => {
  it('is connecting at startup', () => {
    expect(statusOf(start())).toBe('connecting')
  })

  it('ends disconnected at once when no stored connector is on the page', () => {
    expect(run(start(), { type: 'RECONNECT', candidates: [] })).toMatchObject({
      status: 'disconnected',
      effects: [],
    })
  })

  it('tries the most recent stored connector first, without a prompt', () => {
    const result = run(start(), { type: 'RECONNECT', candidates: [metamask, rabby] })
    expect(result.status).toBe('reconnecting')
    expect(result.effects).toEqual([{ type: 'reconnect', params: { wallet: metamask, attempt: 1 } }])
  })

  it('tries the next connector when one fails, one at a time', () => {
    const result = run(
      start(),
      { type: 'RECONNECT', candidates: [metamask, rabby] },
      { type: 'FAILED', attempt: 1, failure: { code: 4100, message: 'no' } },
    )
    expect(result.status).toBe('reconnecting')
    expect(result.effects.at(-1)).toEqual({ type: 'reconnect', params: { wallet: rabby, attempt: 2 } })
  })

  it('ends connected when one succeeds, and remembers it', () => {
    const result = run(
      start(),
      { type: 'RECONNECT', candidates: [metamask, rabby] },
      { type: 'FAILED', attempt: 1, failure: { code: 4100, message: 'no' } },
      { type: 'SUCCEEDED', attempt: 2, connection: connectionOf(rabby) },
    )
    expect(result.status).toBe('connected')
    expect(result.context.connection?.wallet).toBe(rabby)
    expect(result.effects.at(-1)).toEqual({ type: 'remember', params: { wallet: rabby } })
  })

  it('ends disconnected with no connections when every connector fails', () => {
    const result = run(
      start(),
      { type: 'RECONNECT', candidates: [metamask] },
      { type: 'FAILED', attempt: 1, failure: { code: 4100, message: 'no' } },
    )
    expect(result.status).toBe('disconnected')
    expect(result.context.connection).toBeUndefined()
    expect(result.context.candidates).toEqual([])
    expect(result.effects.at(-1)).toEqual({ type: 'forget' })
  })

  it('ignores the answer to an attempt that is no longer current', () => {
    const result = run(
      start(),
      { type: 'RECONNECT', candidates: [metamask, rabby] },
      { type: 'FAILED', attempt: 1, failure: { code: 4100, message: 'no' } },
      { type: 'SUCCEEDED', attempt: 1, connection: connectionOf(metamask) },
    )
    expect(result.status).toBe('reconnecting')
  })
})

describe('connection: the user connects', () => {
  const disconnected = () => run(start(), { type: 'RECONNECT', candidates: [] }).state

  it('prompts the chosen wallet and stays disconnected meanwhile', () => {
    const result = run(disconnected(), { type: 'CONNECT', wallet: metamask })
    expect(result).toMatchObject({ value: 'prompting', status: 'disconnected' })
    expect(result.effects).toEqual([{ type: 'prompt', params: { wallet: metamask, attempt: 1 } }])
  })

  it('connects and remembers the wallet when the wallet approves', () => {
    const result = run(
      disconnected(),
      { type: 'CONNECT', wallet: metamask },
      { type: 'SUCCEEDED', attempt: 1, connection: connectionOf(metamask) },
    )
    expect(result.status).toBe('connected')
    expect(result.effects.at(-1)).toEqual({ type: 'remember', params: { wallet: metamask } })
  })

  it('keeps the failure for the view and retries with a new attempt', () => {
    const failed = run(
      disconnected(),
      { type: 'CONNECT', wallet: metamask },
      { type: 'FAILED', attempt: 1, failure: { code: 4001, message: 'User rejected the request.' } },
    )
    expect(failed).toMatchObject({ value: 'failed', status: 'disconnected' })
    expect(failed.context.prompt).toEqual({
      wallet: metamask,
      failure: { code: 4001, message: 'User rejected the request.' },
    })
    const retried = run(failed.state, { type: 'RETRY' })
    expect(retried.value).toBe('prompting')
    expect(retried.context.prompt).toEqual({ wallet: metamask })
    expect(retried.effects).toEqual([{ type: 'prompt', params: { wallet: metamask, attempt: 2 } }])
  })

  it('drops a late approval after the user cancelled', () => {
    const result = run(
      disconnected(),
      { type: 'CONNECT', wallet: metamask },
      { type: 'CANCEL' },
      { type: 'SUCCEEDED', attempt: 1, connection: connectionOf(metamask) },
    )
    expect(result).toMatchObject({ value: 'disconnected', effects: [{ type: 'prompt' }] })
  })

  it('switches to another wallet while prompting', () => {
    const result = run(
      disconnected(),
      { type: 'CONNECT', wallet: metamask },
      { type: 'CONNECT', wallet: rabby },
    )
    expect(result.effects.at(-1)).toEqual({ type: 'prompt', params: { wallet: rabby, attempt: 2 } })
  })
})

describe('connection: wallet events while connected', () => {
  const connected = () =>
    run(
      start(),
      { type: 'RECONNECT', candidates: [] },
      { type: 'CONNECT', wallet: metamask },
      { type: 'SUCCEEDED', attempt: 1, connection: connectionOf(metamask) },
    ).state

  it('disconnects and forgets when the wallet reports no accounts', () => {
    const result = run(connected(), { type: 'ACCOUNTS_CHANGED', accounts: [] })
    expect(result).toMatchObject({ status: 'disconnected', effects: [{ type: 'forget' }] })
    expect(result.context.connection).toBeUndefined()
  })

  it('follows an account change', () => {
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const result = run(connected(), { type: 'ACCOUNTS_CHANGED', accounts: [{ address: other }] })
    expect(result.context.connection?.accounts).toEqual([{ address: other }])
  })

  it('keeps public keys learnt at connect when a wallet event names the same account', () => {
    const publicKey = new Uint8Array([1, 2, 3])
    const solana = { ...metamask, namespace: 'solana' as const }
    const state = run(
      initialTransition(machine, { namespace: 'solana' })[0],
      { type: 'RECONNECT', candidates: [] },
      { type: 'CONNECT', wallet: solana },
      {
        type: 'SUCCEEDED',
        attempt: 1,
        connection: { wallet: solana, accounts: [{ address: 'abc', publicKey }], chainId: 'solana:x' },
      },
      { type: 'ACCOUNTS_CHANGED', accounts: [{ address: 'abc' }] },
    )
    expect(state.context.connection?.accounts).toEqual([{ address: 'abc', publicKey }])
  })

  it('follows a chain change', () => {
    const result = run(connected(), { type: 'CHAIN_CHANGED', chainId: 'eip155:31338' })
    expect(result.context.connection?.chainId).toBe('eip155:31338')
  })

  it('disconnects and forgets on DISCONNECT', () => {
    expect(run(connected(), { type: 'DISCONNECT' })).toMatchObject({
      status: 'disconnected',
      effects: [{ type: 'forget' }],
    })
  })
})

describe('connection: a wallet picked while (re)connecting', () => {
  it('prompts a wallet picked before the stored connectors are known', () => {
    const result = run(start(), { type: 'CONNECT', wallet: rabby })
    expect(result).toMatchObject({ value: 'prompting', context: { prompt: { wallet: rabby } } })
    expect(result.effects).toEqual([{ type: 'prompt', params: { wallet: rabby, attempt: 1 } }])
  })

  it('stops the reconnect and prompts, ignoring the reconnect’s late answer', () => {
    const result = run(
      start(),
      { type: 'RECONNECT', candidates: [metamask] },
      { type: 'CONNECT', wallet: rabby },
      { type: 'SUCCEEDED', attempt: 1, connection: connectionOf(metamask) },
    )
    expect(result).toMatchObject({
      value: 'prompting',
      context: { candidates: [], prompt: { wallet: rabby } },
    })
    expect(result.effects.at(-1)).toEqual({ type: 'prompt', params: { wallet: rabby, attempt: 2 } })
    const connected = run(result.state, { type: 'SUCCEEDED', attempt: 2, connection: connectionOf(rabby) })
    expect(connected.context.connection?.wallet).toBe(rabby)
  })
})

describe('connection: replacing a connection', () => {
  const connected = () =>
    run(
      start(),
      { type: 'RECONNECT', candidates: [metamask] },
      { type: 'SUCCEEDED', attempt: 1, connection: connectionOf(metamask) },
    ).state

  it('keeps the current connection while another wallet is prompted', () => {
    const result = run(connected(), { type: 'CONNECT', wallet: rabby })
    expect(result).toMatchObject({ value: 'prompting', status: 'connected' })
    expect(result.context.connection?.wallet).toBe(metamask)
    expect(result.effects.map((effect) => effect.type)).not.toContain('forget')
  })

  it('replaces the connection, and what is stored, when the new wallet approves', () => {
    const result = run(
      connected(),
      { type: 'CONNECT', wallet: rabby },
      { type: 'SUCCEEDED', attempt: 2, connection: connectionOf(rabby) },
    )
    expect(result.context.connection?.wallet).toBe(rabby)
    expect(result.effects.slice(-2)).toEqual([
      { type: 'forget' },
      { type: 'remember', params: { wallet: rabby } },
    ])
  })

  it('returns to the current connection when the user gives up on the new wallet', () => {
    const result = run(
      connected(),
      { type: 'CONNECT', wallet: rabby },
      { type: 'FAILED', attempt: 2, failure: { code: 4001, message: 'no' } },
      { type: 'CANCEL' },
    )
    expect(result).toMatchObject({ value: 'connected', effects: [{ type: 'prompt' }] })
    expect(result.context.connection?.wallet).toBe(metamask)
  })
})
