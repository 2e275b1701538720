import { describe, expect, it } from 'vitest'
import { createActor, initialTransition, transition } from 'xstate'
import {
  closeBlocked,
  currentView,
  isOpen,
  machine,
  type RouterEvent,
  type RouterInput,
  type RouterSnapshot,
} from './Router.ts'

const desktop: RouterInput = { embedded: false, mobile: false, adapters: true, connected: false }

const effects = (actions: { type: string }[]) => actions.map((action) => action.type)

function start(input: Partial<RouterInput> = {}) {
  return initialTransition(machine, { ...desktop, ...input })[0]
}

function run(snapshot: RouterSnapshot, ...events: RouterEvent[]) {
  let state = snapshot
  const all: string[] = []
  for (const event of events) {
    const [next, actions] = transition(machine, state, event)
    state = next
    all.push(...effects(actions))
  }
  return {
    state,
    view: currentView(state.context),
    open: isOpen(state),
    effects: all,
    history: state.context.history,
  }
}

describe('router: opening', () => {
  it('rests closed on Connect when nothing is connected', () => {
    const state = start()
    expect(isOpen(state)).toBe(false)
    expect(currentView(state.context)).toBe('Connect')
  })

  it('opens on Connect without a connected address', () => {
    expect(run(start(), { type: 'OPEN' })).toMatchObject({ open: true, view: 'Connect', effects: [] })
  })

  it('opens on Account when an address is connected', () => {
    expect(run(start({ connected: true }), { type: 'OPEN' })).toMatchObject({ open: true, view: 'Account' })
  })

  it('lets an explicitly requested view win over the connected address', () => {
    expect(run(start({ connected: true }), { type: 'OPEN', view: 'Networks' })).toMatchObject({
      view: 'Networks',
    })
  })

  it('opens ConnectingWalletConnectBasic on desktop with no adapters and no address', () => {
    expect(run(start({ adapters: false }), { type: 'OPEN' }).view).toBe('ConnectingWalletConnectBasic')
  })

  it('opens AllWallets on mobile with no adapters and no address', () => {
    expect(run(start({ adapters: false, mobile: true }), { type: 'OPEN' }).view).toBe('AllWallets')
  })

  it('opens on Account without adapters when an address is connected', () => {
    expect(run(start({ adapters: false, connected: true }), { type: 'OPEN' }).view).toBe('Account')
  })

  it('only flips visibility when opening onto the pre-rendered resting view', () => {
    const closed = start({ connected: true })
    const opened = run(closed, { type: 'OPEN' })
    expect(opened.history).toEqual(closed.context.history)
  })

  it('resets the stack when opened again with a requested view', () => {
    const result = run(
      start(),
      { type: 'OPEN' },
      { type: 'PUSH', view: 'ConnectingExternal' },
      { type: 'OPEN', view: 'Connect' },
    )
    expect(result.history).toEqual(['Connect'])
  })

  it('keeps the stack when opened again without a view', () => {
    const result = run(
      start(),
      { type: 'OPEN' },
      { type: 'PUSH', view: 'ConnectingExternal' },
      { type: 'OPEN' },
    )
    expect(result.history).toEqual(['Connect', 'ConnectingExternal'])
  })
})

describe('router: history', () => {
  it('pushes and goes back one view', () => {
    const result = run(
      start({ connected: true }),
      { type: 'OPEN' },
      { type: 'PUSH', view: 'Networks' },
      { type: 'BACK' },
    )
    expect(result).toMatchObject({ open: true, view: 'Account', effects: [] })
  })

  it('replaces the current view', () => {
    const result = run(
      start(),
      { type: 'OPEN' },
      { type: 'PUSH', view: 'Networks' },
      { type: 'REPLACE', view: 'Account' },
    )
    expect(result.history).toEqual(['Connect', 'Account'])
  })

  it('closes when going back with one entry', () => {
    expect(run(start(), { type: 'OPEN' }, { type: 'BACK' })).toMatchObject({
      open: false,
      effects: ['closed'],
    })
  })

  it('closes when going back while the history includes UnsupportedChain', () => {
    const result = run(
      start({ connected: true }),
      { type: 'OPEN', view: 'UnsupportedChain' },
      { type: 'PUSH', view: 'Networks' },
      { type: 'BACK' },
    )
    expect(result).toMatchObject({ open: false, view: 'Account', effects: ['closed'] })
  })

  it('ignores navigation while closed', () => {
    const result = run(start(), { type: 'PUSH', view: 'Networks' }, { type: 'BACK' }, { type: 'CLOSE' })
    expect(result).toMatchObject({ open: false, view: 'Connect', effects: [] })
  })
})

describe('router: closing', () => {
  it('closes and resets to the resting view, telling the runtime', () => {
    const result = run(start({ connected: true }), { type: 'OPEN', view: 'Networks' }, { type: 'CLOSE' })
    expect(result).toMatchObject({ open: false, view: 'Account', effects: ['closed'] })
  })

  it('does not close on ApproveTransaction unless forced', () => {
    const opened = run(start({ connected: true }), { type: 'OPEN', view: 'ApproveTransaction' }).state
    expect(run(opened, { type: 'CLOSE' })).toMatchObject({
      open: true,
      view: 'ApproveTransaction',
      effects: [],
    })
    expect(run(opened, { type: 'BACK' })).toMatchObject({ open: true, effects: [] })
    expect(run(opened, { type: 'CLOSE', force: true })).toMatchObject({ open: false, effects: ['closed'] })
  })

  it('keeps ApproveTransaction in front when the host opens another view, and opens others as before', () => {
    const opened = run(start({ connected: true }), { type: 'OPEN', view: 'ApproveTransaction' }).state
    expect(run(opened, { type: 'OPEN', view: 'Account' })).toMatchObject({
      open: true,
      view: 'ApproveTransaction',
    })
    const account = run(start({ connected: true }), { type: 'OPEN', view: 'Account' }).state
    expect(run(account, { type: 'OPEN', view: 'Networks' })).toMatchObject({ open: true, view: 'Networks' })
  })

  it('in embedded mode is open from the start', () => {
    expect(isOpen(start({ embedded: true }))).toBe(true)
  })

  it('in embedded mode returns to Account when connected instead of closing', () => {
    const result = run(
      start({ embedded: true, connected: true }),
      { type: 'PUSH', view: 'Networks' },
      { type: 'CLOSE' },
    )
    expect(result).toMatchObject({ open: true, view: 'Account', history: ['Account'], effects: ['closed'] })
  })

  it('in embedded mode returns to Connect, not the no-adapters view, when not connected', () => {
    const result = run(
      start({ embedded: true, adapters: false }),
      { type: 'PUSH', view: 'Networks' },
      { type: 'CLOSE' },
    )
    expect(result).toMatchObject({ open: true, view: 'Connect', history: ['Connect'] })
  })

  it('in embedded mode returns to Connect when not connected', () => {
    const result = run(
      start({ embedded: true }),
      { type: 'PUSH', view: 'ConnectingExternal' },
      { type: 'CLOSE' },
    )
    expect(result).toMatchObject({ open: true, view: 'Connect', effects: ['closed'] })
  })
})

describe('router: connection changes', () => {
  it('moves the resting view to Account when an address connects while closed', () => {
    expect(run(start(), { type: 'CONNECTED', connected: true })).toMatchObject({
      open: false,
      view: 'Account',
    })
  })

  it('moves the resting view back to Connect on disconnect while closed', () => {
    expect(run(start({ connected: true }), { type: 'CONNECTED', connected: false }).view).toBe('Connect')
  })

  it('leaves Account for Connect when the address goes away while open', () => {
    const result = run(start({ connected: true }), { type: 'OPEN' }, { type: 'CONNECTED', connected: false })
    expect(result).toMatchObject({ open: true, view: 'Connect', history: ['Connect'] })
  })

  it('keeps a connect flow in place while an address connects', () => {
    const result = run(
      start(),
      { type: 'OPEN' },
      { type: 'PUSH', view: 'ConnectingExternal' },
      { type: 'CONNECTED', connected: true },
    )
    expect(result.history).toEqual(['Connect', 'ConnectingExternal'])
  })
})

describe('router: unsupported network', () => {
  it('rests on UnsupportedChain when the account reconnects onto an unconfigured chain', () => {
    const result = run(start(), { type: 'CONNECTED', connected: true, unsupported: true }, { type: 'OPEN' })
    expect(result).toMatchObject({ open: true, view: 'UnsupportedChain' })
  })

  it('rests on Account again once the chain is supported', () => {
    const result = run(
      start(),
      { type: 'CONNECTED', connected: true, unsupported: true },
      { type: 'CONNECTED', connected: true, unsupported: false },
    )
    expect(result.view).toBe('Account')
  })
})

describe('router: adapters loaded late', () => {
  it('moves the resting view when the registry finds no configured namespace', () => {
    expect(run(start(), { type: 'ADAPTERS', adapters: false }).view).toBe('ConnectingWalletConnectBasic')
  })

  it('replaces an untouched resting view while open, keeping views the user went to', () => {
    expect(run(start(), { type: 'OPEN' }, { type: 'ADAPTERS', adapters: false }).view).toBe(
      'ConnectingWalletConnectBasic',
    )
    const moved = run(start(), { type: 'OPEN', view: 'Networks' }, { type: 'ADAPTERS', adapters: false })
    expect(moved.history).toEqual(['Networks'])
  })
})

describe('router: required sign-in', () => {
  const open = (view: 'SIWXSignMessage' | 'ConnectingSiwe') => {
    const actor = createActor(machine, {
      input: { embedded: false, mobile: false, adapters: true, connected: true },
    })
    actor.start()
    actor.send({ type: 'OPEN', view })
    return actor
  }

  it('cannot close the sign-in views while locked, by Close, Back or Escape', () => {
    for (const view of ['SIWXSignMessage', 'ConnectingSiwe'] as const) {
      const actor = open(view)
      actor.send({ type: 'LOCK', locked: true })
      actor.send({ type: 'CLOSE' })
      actor.send({ type: 'BACK' })
      expect(actor.getSnapshot().value).toBe('open')
      expect(currentView(actor.getSnapshot().context)).toBe(view)
      expect(closeBlocked(actor.getSnapshot().context)).toBe(true)
    }
  })

  it('closes them when not locked, and when forced', () => {
    const free = open('SIWXSignMessage')
    free.send({ type: 'CLOSE' })
    expect(free.getSnapshot().value).toBe('closed')
    const locked = open('SIWXSignMessage')
    locked.send({ type: 'LOCK', locked: true })
    locked.send({ type: 'CLOSE', force: true })
    expect(locked.getSnapshot().value).toBe('closed')
  })

  it('does not lock other views', () => {
    const actor = open('SIWXSignMessage')
    actor.send({ type: 'LOCK', locked: true })
    actor.send({ type: 'OPEN', view: 'Account' })
    actor.send({ type: 'CLOSE' })
    expect(actor.getSnapshot().value).toBe('closed')
  })
})
