import { describe, expect, it } from 'vitest'
import { manualClock } from '../../testing/clock.ts'
import * as Quotes from './Quote.ts'

const ask = (amount: string): Quotes.Ask => ({
  purchaseCurrency: 'ETH',
  paymentCurrency: 'USD',
  amount,
  network: 'eip155:31337',
})
const quote = (amount: string): Quotes.Quote => {
  const figure = { amount, currency: 'USD' }
  return {
    coinbaseFee: figure,
    networkFee: figure,
    paymentSubtotal: figure,
    paymentTotal: figure,
    purchaseAmount: { amount: '0.01', currency: 'ETH' },
    quoteId: `q-${amount}`,
    provider: 'sandbox',
  }
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("Buy's live quote", () => {
  it('asks once typing pauses for 500 ms, for the last amount only, and drops nothing newer', async () => {
    const clock = manualClock()
    const asked: string[] = []
    const quoter = Quotes.create({
      timers: clock.timers,
      changed: () => {},
      quote: async (body) => {
        asked.push(body.amount)
        return quote(body.amount)
      },
    })
    quoter.ask(ask('1'))
    clock.advance(300)
    quoter.ask(ask('10'))
    clock.advance(499)
    expect(asked).toEqual([])
    clock.advance(1)
    await tick()
    expect(asked).toEqual(['10'])
    expect(quoter.state()).toMatchObject({ status: 'ready', stale: false, quote: { quoteId: 'q-10' } })
  })

  it('marks the quote stale after 15 s and asks again; an error says the API’s words', async () => {
    const clock = manualClock()
    let fail = false
    const quoter = Quotes.create({
      timers: clock.timers,
      changed: () => {},
      quote: async (body) => {
        if (fail) throw new Error('The minimum purchase is 10.00 USD')
        return quote(body.amount)
      },
    })
    quoter.ask(ask('50'))
    clock.advance(500)
    await tick()
    fail = true
    clock.advance(15_000)
    expect(quoter.state()).toMatchObject({ status: 'loading' })
    await tick()
    expect(quoter.state()).toEqual({
      status: 'error',
      ask: ask('50'),
      message: 'The minimum purchase is 10.00 USD',
    })
    quoter.ask(undefined)
    expect(quoter.state()).toEqual({ status: 'idle' })
  })
})
