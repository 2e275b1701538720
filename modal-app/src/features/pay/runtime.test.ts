import { Async, Errors } from '@airlock/bridge-protocol'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import * as Snackbar from '../../core/Snackbar.ts'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import { type PaySlice, setup } from './runtime.ts'

const network = find('eip155:31337') as Network
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** Pay with a kernel whose wallet is on `chainId` (or none), and an API nobody answers at. */
function start(chainId?: string) {
  const connection: Connection | undefined = chainId
    ? {
        wallet: { id: 'w', namespace: 'eip155', name: 'W', icon: '', chains: [chainId] },
        accounts: [{ address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }],
        chainId: chainId as Connection['chainId'],
      }
    : undefined
  const router = { send: vi.fn(), view: () => 'Pay', isOpen: () => true }
  const kernel = {
    connectionOf: () => connection,
    configured: (id?: string) => (id === network.id ? network : undefined),
    origin: () => 'http://localhost:5173',
    api: { balances: async () => [], endpoint: (path: string) => `http://127.0.0.1:9${path}` },
    router,
    snackbar: Snackbar.create({ onChange: () => {} }),
    timers: Snackbar.realTimers,
    changed: vi.fn(),
    shake: vi.fn(),
    transacted: vi.fn(),
  } as unknown as Kernel
  const wallet = Async.deferred<unknown>()
  Object.assign(kernel, { walletRequest: () => wallet.promise })
  const runtime = setup(kernel)
  const host = runtime.host?.pay as NonNullable<NonNullable<typeof runtime.host>['pay']>
  const pay = (payment: Parameters<typeof host>[0]) => Promise.resolve(host(payment))
  const snapshot = () => (runtime.snapshot?.() as PaySlice | undefined)?.pay
  return { runtime, pay, snapshot, router, wallet }
}

describe('Pay, before anything is sent', () => {
  it('refuses a network the dApp did not configure with 4902, and a second payment while one waits', async () => {
    const { pay } = start(network.id)
    await expect(pay({ to, amount: '1', chain: 'eip155:999' })).rejects.toMatchObject({
      code: 4902,
      message: 'The network eip155:999 is not one this dApp configured.',
    })
    void pay({ to, amount: '1', chain: network.id }).catch(() => {})
    await expect(pay({ to, amount: '1', chain: network.id })).rejects.toMatchObject({
      code: Errors.InternalError.code,
      message: 'Another payment is already waiting for the visitor.',
    })
  })

  it('opens the Pay view, asks to connect without a wallet and to switch on another chain', async () => {
    const disconnected = start()
    void disconnected.pay({ to, amount: '1', chain: network.id }).catch(() => {})
    expect(disconnected.router.send).toHaveBeenCalledWith({ type: 'OPEN', view: 'Pay' })
    await vi.waitFor(() => expect(disconnected.snapshot()?.step).toEqual({ step: 'connect' }))
    const elsewhere = start('eip155:1')
    void elsewhere.pay({ to, amount: '1', chain: network.id }).catch(() => {})
    await vi.waitFor(() => expect(elsewhere.snapshot()?.step).toEqual({ step: 'switch' }))
  })

  it("rejects an amount with more decimals than the asset's with -32602, and closes", async () => {
    const { pay, router } = start(network.id)
    await expect(pay({ to, amount: '0.0000000000000000001', chain: network.id })).rejects.toMatchObject({
      code: -32602,
      message: "`amount` has more decimals than the asset's 18.",
    })
    expect(router.send).toHaveBeenLastCalledWith({ type: 'CLOSE', force: true })
  })

  it('rejects with 4001 when the visitor closes the modal', async () => {
    const { pay, runtime, snapshot } = start()
    const answer = pay({ to, amount: '1', chain: network.id })
    runtime.closed?.()
    await expect(answer).rejects.toMatchObject({ code: 4001 })
    expect(snapshot()).toBeUndefined()
  })
})

describe('Pay, once the wallet is asked', () => {
  const hash = `0x${'ab'.repeat(32)}`
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  /** The API's JSON-RPC relay: a rich account, and every transaction mined and successful. */
  function chain() {
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const { method } = JSON.parse(String(init.body)) as { method: string }
      const result =
        method === 'eth_getBalance'
          ? '0xde0b6b3a7640000'
          : { status: '0x1', transactionHash: hash, blockNumber: '0x1' }
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result }))
    })
  }
  async function asking() {
    chain()
    const started = start(network.id)
    const answer = started.pay({ to, amount: '0.5', chain: network.id })
    await vi.waitFor(() => expect(started.snapshot()?.step).toMatchObject({ step: 'review', busy: false }))
    const ui = started.runtime.ui as { confirmPay(): Promise<void> }
    const confirmed = ui.confirmPay()
    await vi.waitFor(() => expect(started.snapshot()?.step).toMatchObject({ busy: true }))
    started.runtime.closed?.()
    return { ...started, answer, confirmed }
  }

  it('resolves with the hash the wallet sent after the visitor closed the modal, once the chain confirms it', async () => {
    const { answer, wallet, snapshot, confirmed } = await asking()
    expect(snapshot()).toBeUndefined()
    wallet.resolve(hash)
    await confirmed
    await expect(answer).resolves.toBe(hash)
  })

  it("rejects with the wallet's 4001 when it declines after the visitor closed the modal", async () => {
    const { answer, wallet, confirmed } = await asking()
    wallet.reject(new Errors.UserRejectedRequestError())
    await confirmed
    await expect(answer).rejects.toMatchObject({ code: 4001 })
  })
})
