import { describe, expect, it, vi } from 'vitest'
import { manualClock } from '../../testing/clock.ts'
import type { Ask, Token } from './Form.ts'
import * as Quotes from './Quotes.ts'
import { swapTexts } from './texts.ts'

// docs/behaviour.md §9, written out: a test that read the code's own constants would pass whatever they became.
const pauseMs = 500
const refreshMs = 15_000

const token = (symbol: string, decimals: number, price: number): Token => ({
  id: `eip155:1:0x${symbol.padEnd(40, '0').replace(/[^0-9a-f]/gi, '0')}`,
  name: symbol,
  symbol,
  decimals,
  logoUri: '',
  price,
  native: false,
  balance: 10n ** 30n,
})
const eth = token('ETH', 18, 3000)
const usd = token('USD', 6, 1)

/** A constant-product pool of 100 ETH and 300,000 USD with Uniswap v2's 0.3 % fee, for exact inputs. */
function pool(from: string, amount: bigint): bigint {
  const [reserveIn, reserveOut] =
    from === eth.id ? [100n * 10n ** 18n, 300_000n * 10n ** 6n] : [300_000n * 10n ** 6n, 100n * 10n ** 18n]
  const inWithFee = amount * 997n
  return (inWithFee * reserveOut) / (reserveIn * 1000n + inWithFee)
}

function setup(quote?: (from: string, to: string, amount: bigint) => Promise<Quotes.Quote>) {
  const clock = manualClock(1_000_000)
  const changed = vi.fn()
  const asked: bigint[] = []
  const quoter = Quotes.create({
    timers: clock.timers,
    now: clock.now,
    changed,
    quote:
      quote ??
      (async (from, to, amount) => {
        asked.push(amount)
        return quoteOf(from, to, amount, clock.now() + 30_000)
      }),
  })
  return { clock, quoter, asked, changed }
}

function quoteOf(from: string, to: string, amount: bigint, expiresAt: number): Quotes.Quote {
  const out = pool(from, amount)
  return {
    id: `q${amount}`,
    type: 'exactInput',
    venue: { id: 'uniswap-v2', name: 'Uniswap v2' },
    spender: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
    fees: [3000],
    maximumFromAmount: String(amount),
    fromAccount: from,
    fromAmount: String(amount),
    fromDecimals: from === eth.id ? 18 : 6,
    toAccount: to,
    toAmount: String(out),
    toDecimals: to === eth.id ? 18 : 6,
    priceImpact: 0.1,
    route: [from, to],
    minimumToAmount: String((out * 99n) / 100n),
    gas: '150000',
    fee: '1',
    blockNumber: '1',
    expiresAt,
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const ask = (fields: Partial<Ask>): Ask => ({
  from: eth,
  to: usd,
  side: 'from',
  amount: 10n ** 18n,
  ...fields,
})

describe('Quotes', () => {
  it('asks once the visitor pauses for 500 ms, and only for the last thing typed', async () => {
    const { clock, quoter, asked } = setup()
    quoter.ask(ask({ amount: 1n }))
    clock.advance(pauseMs - 1)
    quoter.ask(ask({ amount: 2n * 10n ** 18n }))
    clock.advance(pauseMs - 1)
    expect(asked).toEqual([])
    clock.advance(1)
    await settle()
    expect(asked).toEqual([2n * 10n ** 18n])
    expect(quoter.state()).toMatchObject({
      status: 'ready',
      stale: false,
      quote: { fromAmount: String(2n * 10n ** 18n) },
    })
  })

  it('finds what to pay for an amount wanted on the receiving side, within a hair of it', async () => {
    const { clock, quoter, asked } = setup()
    const wanted = 5_000n * 10n ** 6n
    quoter.ask(ask({ side: 'to', amount: wanted }))
    clock.advance(pauseMs)
    await vi.waitFor(() => expect(quoter.state().status).toBe('ready'))
    const state = quoter.state()
    if (state.status !== 'ready') throw new Error('not ready')
    const got = BigInt(state.quote.toAmount)
    // At least what was asked for, and at most 0.001 % more.
    expect(got >= wanted && got <= wanted + wanted / 100_000n).toBe(true)
    expect(asked).toHaveLength(3)
  })

  it('marks a quote stale when it expires and asks again', async () => {
    const { clock, quoter, asked } = setup()
    quoter.ask(ask({}))
    clock.advance(pauseMs)
    await settle()
    // The API's quote lasts 30 s, the form asks again after 15 s at the latest.
    clock.advance(refreshMs - 1)
    expect(quoter.state()).toMatchObject({ status: 'ready', stale: false })
    clock.advance(1)
    // The old quote stays on screen, marked as being replaced, until the new one is in.
    expect(quoter.state()).toMatchObject({ status: 'loading', previous: { fromAmount: String(10n ** 18n) } })
    await settle()
    expect(asked).toHaveLength(2)
    expect(quoter.state()).toMatchObject({ status: 'ready', stale: false })
  })

  it('drops the answer of an older ask, and says why a quote failed', async () => {
    let release: (() => void) | undefined
    const slow = new Promise<void>((resolve) => {
      release = resolve
    })
    const { clock, quoter } = setup(async (from, to, amount) => {
      if (amount === 1n) await slow
      if (amount === 3n) throw new Error('No pool can make this swap')
      return quoteOf(from, to, amount, clock.now() + 30_000)
    })
    quoter.ask(ask({ amount: 1n }))
    clock.advance(pauseMs)
    quoter.ask(ask({ amount: 2n * 10n ** 12n }))
    clock.advance(pauseMs)
    await settle()
    release?.()
    await settle()
    expect(quoter.state()).toMatchObject({ status: 'ready', quote: { fromAmount: String(2n * 10n ** 12n) } })
    quoter.ask(ask({ amount: 3n }))
    clock.advance(pauseMs)
    await settle()
    expect(quoter.state()).toEqual({
      status: 'error',
      ask: ask({ amount: 3n }),
      message: 'No pool can make this swap',
    })
  })

  it('calls an amount that buys nothing too small to swap', async () => {
    const { clock, quoter } = setup()
    quoter.ask(ask({ amount: 1n }))
    clock.advance(pauseMs)
    await settle()
    expect(quoter.state()).toMatchObject({ status: 'error', message: swapTexts.dust })
  })

  it('stops asking once the form closes, and an incomplete form clears the quote', async () => {
    const { clock, quoter, asked } = setup()
    quoter.ask(ask({}))
    clock.advance(pauseMs)
    await settle()
    quoter.ask(undefined)
    expect(quoter.state()).toEqual({ status: 'idle' })
    quoter.ask(ask({}))
    quoter.stop()
    clock.advance(60_000)
    await settle()
    expect(asked).toHaveLength(1)
    expect(clock.waiting()).toEqual([])
  })
})
