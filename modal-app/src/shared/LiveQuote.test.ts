import { describe, expect, it } from 'vitest'
import { manualClock } from '../testing/clock.ts'
import * as LiveQuote from './LiveQuote.ts'

type Ask = { amount: string }
type Quote = { id: string; ttl?: number }

// docs/behaviour.md §9, written out: a test that read the code's own constants would pass whatever they became.
const pauseMs = 500
const refreshMs = 15_000

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

function setup(quote?: (ask: Ask) => Promise<Quote>, ttl?: (quote: Quote) => number) {
  const clock = manualClock()
  const asked: string[] = []
  const quoter = LiveQuote.create<Ask, Quote>({
    timers: clock.timers,
    changed: () => {},
    ttl,
    quote:
      quote ??
      (async (ask) => {
        asked.push(ask.amount)
        return { id: `q-${ask.amount}` }
      }),
  })
  return { clock, quoter, asked }
}

describe('a live quote', () => {
  it('asks once typing pauses for 500 ms, for the last amount only', async () => {
    const { clock, quoter, asked } = setup()
    quoter.ask({ amount: '1' })
    clock.advance(300)
    quoter.ask({ amount: '10' })
    clock.advance(pauseMs - 1)
    expect(asked).toEqual([])
    clock.advance(1)
    await tick()
    expect(asked).toEqual(['10'])
    expect(quoter.state()).toMatchObject({ status: 'ready', stale: false, quote: { id: 'q-10' } })
  })

  it('marks the quote stale after 15 s and asks again, showing the old one meanwhile; an error says the words it was given', async () => {
    let fail = false
    const { clock, quoter } = setup(async (ask) => {
      if (fail) throw new Error('The minimum purchase is 10.00 USD')
      return { id: `q-${ask.amount}` }
    })
    quoter.ask({ amount: '50' })
    clock.advance(pauseMs)
    await tick()
    fail = true
    clock.advance(refreshMs)
    expect(quoter.state()).toMatchObject({ status: 'loading' })
    expect(LiveQuote.shown(quoter.state())).toEqual({ id: 'q-50' })
    await tick()
    expect(quoter.state()).toEqual({
      status: 'error',
      ask: { amount: '50' },
      message: 'The minimum purchase is 10.00 USD',
    })
    expect(LiveQuote.shown(quoter.state())).toBeUndefined()
    quoter.ask(undefined)
    expect(quoter.state()).toEqual({ status: 'idle' })
  })

  it('asks again when the quote says it ends, and at once on refresh', async () => {
    const { clock, quoter, asked } = setup(
      async (ask) => {
        asked.push(ask.amount)
        return { id: `q-${ask.amount}`, ttl: 4_000 }
      },
      (quote) => quote.ttl ?? LiveQuote.refreshMs,
    )
    quoter.ask({ amount: '5' })
    clock.advance(pauseMs)
    await tick()
    clock.advance(3_999)
    expect(quoter.state()).toMatchObject({ status: 'ready', stale: false })
    clock.advance(1)
    await tick()
    expect(asked).toEqual(['5', '5'])
    quoter.refresh()
    clock.advance(0)
    await tick()
    expect(asked).toEqual(['5', '5', '5'])
    quoter.stop()
    expect(clock.waiting()).toEqual([])
  })
})
