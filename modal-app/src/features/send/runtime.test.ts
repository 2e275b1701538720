import { describe, expect, it, vi } from 'vitest'
import type * as Api from '../../api/Api.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import * as Snackbar from '../../core/Snackbar.ts'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import type { RecentSendsSlice } from '../../shared/RecentSend.ts'
import { manualClock } from '../../testing/clock.ts'
import { type Family, type Preview, SendFailure } from './Family.ts'
import { type SendSlice, type SendUi, setup } from './runtime.ts'
import { sendTexts } from './texts.ts'

// The registry's devnet: the network every journey runs on.
const network = find('eip155:31337') as Network
const from = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ether: Api.TokenBalance = {
  name: 'Ether',
  symbol: 'ETH',
  chainId: network.id,
  value: 30_000,
  price: 3_000,
  quantity: { decimals: '18', numeric: '10' },
  iconUrl: '',
}
const wallet = { id: 'w', namespace: 'eip155' as const, name: 'W', icon: '', chains: [network.id] }
const connectionOf = (address: string): Connection => ({
  wallet,
  accounts: [{ address }],
  chainId: network.id,
})

/** A family whose chain is a script: each submit answers the next id, each settle waits for the test. */
function scriptedFamily(ids: string[]) {
  const settles = new Map<string, (status: 'confirmed' | 'failed') => void>()
  const submit = vi.fn(async (_chain, _preview: Preview) => {
    const id = ids.shift()
    if (!id) throw new SendFailure('declined', 'Signature declined')
    return id
  })
  const family: Family = {
    namespace: 'eip155',
    checkAddress: () => undefined,
    max: async () => 0n,
    preview: async (_chain, draft) => ({ draft, fee: 21_000n, changes: [], details: [], payload: draft }),
    submit,
    settle: (_chain, id) => new Promise((resolve) => settles.set(id, resolve)),
  }
  return { family, submit, settle: (id: string, status: 'confirmed' | 'failed') => settles.get(id)?.(status) }
}

function start(family: Family, on = { view: 'Send' }, clock?: ReturnType<typeof manualClock>) {
  let time = 1_700_000_000_000
  let connection = connectionOf(from)
  const changed = vi.fn()
  // Only what Send reads of the kernel; the snackbar is the core's own.
  const kernel = {
    activeNamespace: () => 'eip155',
    connectionOf: () => connection,
    configured: (id?: string) => (id === network.id ? network : undefined),
    api: { balances: async () => [ether], endpoint: (path: string) => `http://127.0.0.1:1${path}` },
    router: { send: vi.fn(), view: () => on.view, isOpen: () => true },
    snackbar: Snackbar.create({ onChange: () => {}, timers: clock?.timers }),
    now: () => time++,
    changed,
    shake: vi.fn(),
    transacted: vi.fn(),
    walletRequest: async () => null,
    track: vi.fn(),
  } as unknown as Kernel
  const runtime = setup(kernel, async () => family)
  const ui = runtime.ui as SendUi
  const snapshot = () => runtime.snapshot?.() as SendSlice & RecentSendsSlice
  /** Fills the form, previews it and has it signed; resolves once the send is broadcast (or refused). */
  async function send(amount: string) {
    ui.showSend()
    await vi.waitFor(() => expect(snapshot().send.loading).toBe(false))
    ui.editSend('amount', amount)
    ui.editSend('to', to)
    await ui.reviewSend()
    expect(snapshot().send.step.step).toBe('preview')
    void ui.confirmSend()
    await vi.waitFor(() => {
      const { step } = snapshot().send
      expect(step.step === 'sent' || Boolean(step.error)).toBe(true)
    })
  }
  /** The wallet switched to another account, as its accountsChanged would tell the core. */
  const switchAccount = (address: string) => {
    connection = connectionOf(address)
    runtime.changed?.('eip155', connection, 'account')
  }
  const tracked = () => vi.mocked(kernel.track).mock.calls.map(([event]) => event)
  const back = (view: string) => runtime.back?.(view)
  return { snapshot, send, changed, ui, switchAccount, tracked, back, snackbar: kernel.snackbar }
}

/** A family whose wallet answers when the test says. */
function heldFamily() {
  const answers: { resolve(id: string): void; reject(error: unknown): void }[] = []
  const chain = scriptedFamily([])
  const submit = vi.fn(() => new Promise<string>((resolve, reject) => answers.push({ resolve, reject })))
  return { family: { ...chain.family, submit }, submit, answers }
}

describe('the sends of this page load', () => {
  it('records a send as pending once broadcast, then as the chain settles it', async () => {
    const chain = scriptedFamily(['0xaaa'])
    const { snapshot, send, changed } = start(chain.family)
    expect(snapshot().sends.recent).toEqual([])

    await send('1.25')
    expect(snapshot().sends.recent).toEqual([
      {
        id: '0xaaa',
        chainId: 'eip155:31337',
        from,
        to,
        symbol: 'ETH',
        amount: 1_250_000_000_000_000_000n,
        decimals: 18,
        status: 'pending',
        time: expect.any(Number),
      },
    ])
    changed.mockClear()
    chain.settle('0xaaa', 'confirmed')
    await vi.waitFor(() => expect(snapshot().sends.recent[0]?.status).toBe('confirmed'))
    // The views render again: the Activity tab shows the new status.
    expect(changed).toHaveBeenCalled()
  })

  it('keeps the newest first, each with what its chain answered', async () => {
    const chain = scriptedFamily(['0xaaa', '0xbbb'])
    const { snapshot, send } = start(chain.family)
    await send('1')
    chain.settle('0xaaa', 'confirmed')
    await vi.waitFor(() => expect(snapshot().sends.recent[0]?.status).toBe('confirmed'))
    await send('2')
    chain.settle('0xbbb', 'failed')
    await vi.waitFor(() =>
      expect(snapshot().sends.recent.map((s) => `${s.id} ${s.amount} ${s.status}`)).toEqual([
        '0xbbb 2000000000000000000 failed',
        '0xaaa 1000000000000000000 confirmed',
      ]),
    )
    const [second, first] = snapshot().sends.recent
    expect(second?.time).toBeGreaterThan(first?.time ?? Number.POSITIVE_INFINITY)
  })

  it('records nothing the wallet refused to sign', async () => {
    const chain = scriptedFamily([])
    const { snapshot, send, tracked } = start(chain.family)
    await send('1')
    expect(chain.submit).toHaveBeenCalledOnce()
    expect(snapshot().send.step).toMatchObject({ step: 'preview', error: 'Signature declined' })
    expect(snapshot().sends.recent).toEqual([])
    // Analytics hear of the attempt and its refusal: the network and the asset, no amount or address.
    expect(tracked()).toEqual([
      { event: 'SEND_INITIATED', properties: { network: network.id, symbol: 'ETH' } },
      {
        event: 'SEND_ERROR',
        properties: { network: network.id, symbol: 'ETH', message: 'Signature declined' },
      },
    ])
  })
})

describe('one message per outcome (docs/behaviour.md)', () => {
  it('says a refused send once, beside Send in the preview, and closes its progress snack', async () => {
    const clock = manualClock()
    const { snapshot, send, snackbar } = start(scriptedFamily([]).family, { view: 'SendPreview' }, clock)
    await send('1')
    expect(snapshot().send.step).toMatchObject({ step: 'preview', error: 'Signature declined' })
    expect(snackbar.current()).toBeUndefined()
    // Past the snackbar's swap (150 ms, docs/behaviour.md §9): nothing was waiting to come in either.
    clock.advance(150)
    expect(snackbar.current()).toBeUndefined()
  })

  it('says it in the snackbar where the visitor has left the preview', async () => {
    const { send, snackbar } = start(scriptedFamily([]).family, { view: 'Account' })
    await send('1')
    await vi.waitFor(() =>
      expect(snackbar.current()).toMatchObject({ variant: 'error', message: 'Signature declined' }),
    )
  })

  it('lets the result say how the chain settled it, and the snackbar where the result is not on screen', async () => {
    const chain = scriptedFamily(['0xaaa', '0xbbb'])
    const on = { view: 'SendPreview' }
    const clock = manualClock()
    const { snapshot, send, snackbar } = start(chain.family, on, clock)
    await send('1')
    chain.settle('0xaaa', 'failed')
    await vi.waitFor(() => expect(snapshot().send.step).toMatchObject({ step: 'sent', status: 'failed' }))
    clock.advance(150)
    expect(snackbar.current()).toBeUndefined()
    await send('1')
    on.view = 'Account'
    chain.settle('0xbbb', 'failed')
    await vi.waitFor(() =>
      expect(snackbar.current()).toMatchObject({ variant: 'error', message: sendTexts.failedOnChain }),
    )
  })
})

describe('one send at a time, from where it was reviewed', () => {
  async function reviewed(held: ReturnType<typeof heldFamily>) {
    const flow = start(held.family)
    flow.ui.showSend()
    await vi.waitFor(() => expect(flow.snapshot().send.loading).toBe(false))
    flow.ui.editSend('amount', '1')
    flow.ui.editSend('to', to)
    await flow.ui.reviewSend()
    expect(flow.snapshot().send.step.step).toBe('preview')
    return flow
  }

  it('asks the wallet once while it has not answered, and says a send is waiting', async () => {
    const held = heldFamily()
    const { ui, snapshot, back } = await reviewed(held)
    void ui.confirmSend()
    await vi.waitFor(() => expect(held.submit).toHaveBeenCalledOnce())
    await ui.confirmSend()
    expect(snapshot().send.waiting).toBe(true)
    // Back, Send again, Review, Send: the waiting one stays the only one.
    back('SendPreview')
    ui.showSend()
    await ui.reviewSend()
    await ui.confirmSend()
    expect(held.submit).toHaveBeenCalledOnce()
    held.answers[0]?.resolve('0xaaa')
    await vi.waitFor(() => expect(snapshot().send.step).toMatchObject({ step: 'sent', id: '0xaaa' }))
    expect(snapshot().send.waiting).toBe(false)
  })

  it('never sends a preview from an account other than the one it was reviewed for', async () => {
    const held = heldFamily()
    const { ui, snapshot, switchAccount } = await reviewed(held)
    switchAccount('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(snapshot().send.step).toEqual({ step: 'form', busy: false, error: sendTexts.accountChanged })
    await ui.confirmSend()
    expect(held.submit).not.toHaveBeenCalled()
  })

  it('does not bring back the old preview when the wallet refuses after the account changed', async () => {
    const held = heldFamily()
    const { ui, snapshot, switchAccount } = await reviewed(held)
    void ui.confirmSend()
    await vi.waitFor(() => expect(held.submit).toHaveBeenCalledOnce())
    switchAccount('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    held.answers[0]?.reject(new SendFailure('declined', 'Signature declined'))
    await vi.waitFor(() => expect(snapshot().send.waiting).toBe(false))
    expect(snapshot().send.step).toMatchObject({ step: 'form' })
    await ui.confirmSend()
    expect(held.submit).toHaveBeenCalledOnce()
  })
})
