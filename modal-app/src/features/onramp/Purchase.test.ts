import type * as Contract from '@airlock/api/contract'
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../testing/clock.ts'
import type { Chain } from './Chain.ts'
import { type Stage, track } from './Purchase.ts'

const order = (patch: Partial<Contract.OnrampOrder>): Contract.OnrampOrder => ({
  orderId: 'order-0123456789abcdef',
  status: 'pending',
  provider: 'sandbox',
  address: `0x${'1'.repeat(40)}`,
  network: 'eip155:31337',
  asset: 'ETH',
  updatedAt: '2026-11-27T00:00:00.000Z',
  ...patch,
})
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A purchase followed against orders answered in turn, and a chain whose receipts say `receipt`. */
function follow(answers: Contract.OnrampOrder[], receipt: 'confirmed' | 'failed' = 'confirmed') {
  const clock = manualClock()
  const stages: Stage[] = []
  const popup = { closed: false }
  const chain = { receipt: async () => receipt } as unknown as Chain
  const tracking = track({
    orderId: 'order-0123456789abcdef',
    order: async () => answers.shift() ?? order({}),
    chain,
    timers: clock.timers,
    window: () => popup,
    onStage: (stage) => stages.push(stage),
    reverted: 'The purchase failed',
  })
  return { clock, stages, popup, tracking }
}

describe('a purchase followed after its checkout opened', () => {
  it('waits for the payment while the window shows, says when it was closed, then follows the delivery to the chain', async () => {
    const { clock, stages, popup } = follow([
      order({}),
      order({}),
      order({
        status: 'completed',
        txHash: `0x${'a'.repeat(64)}`,
        purchaseAmount: { amount: '0.03', currency: 'ETH' },
      }),
    ])
    await tick()
    expect(stages).toEqual([{ stage: 'paying', windowOpen: true }])
    popup.closed = true
    clock.advance(2_000)
    await tick()
    expect(stages.at(-1)).toEqual({ stage: 'paying', windowOpen: false })
    clock.advance(2_000)
    await tick()
    await tick()
    expect(stages.slice(-2)).toEqual([
      { stage: 'delivering', txHash: `0x${'a'.repeat(64)}` },
      { stage: 'arrived', txHash: `0x${'a'.repeat(64)}`, amount: { amount: '0.03', currency: 'ETH' } },
    ])
  })

  it("ends on the provider's reason when the order fails, and on a revert when the delivery does", async () => {
    const declined = follow([order({ status: 'failed', failureReason: 'Your card was declined.' })])
    await tick()
    expect(declined.stages).toEqual([{ stage: 'failed', reason: 'Your card was declined.' }])
    const reverted = follow([order({ status: 'completed', txHash: `0x${'b'.repeat(64)}` })], 'failed')
    await tick()
    await tick()
    expect(reverted.stages.at(-1)).toEqual({ stage: 'failed', reason: 'The purchase failed' })
  })

  it('reports nothing more once stopped; the order itself goes on', async () => {
    const { clock, stages, tracking } = follow([order({})])
    await tick()
    tracking.stop()
    clock.advance(10_000)
    await tick()
    expect(stages).toHaveLength(1)
  })
})
