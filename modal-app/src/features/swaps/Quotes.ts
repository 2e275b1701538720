/**
 * The live quote of the swap form. Typing asks again once the visitor pauses (docs/behaviour.md §9: 500 ms debounce); a
 * quote is asked again when it expires (the API says when) while the form shows, and is marked stale in the
 * meantime so it is never reviewed; an answer for an older ask is dropped.
 *
 * The pools are quoted for an exact input. An amount typed on the receiving side is found from there: a first
 * guess from the two tokens' prices (or one unit's quote when a price is unknown), a correction in
 * proportion to what the guess bought, then one along the secant of the last two answers: on a
 * constant-product pool that lands a few millionths above the wanted amount, never below. The quote shown is always the pools' answer for the amount that will be paid.
 */
import type * as Contract from '@airlock/api/contract'
import type { Timers } from '../../core/Snackbar.ts'
import * as LiveQuote from '../../shared/LiveQuote.ts'
import type { Ask } from './Form.ts'
import { swapTexts } from './texts.ts'

export type Quote = Contract.SwapQuote
export type QuoteState = LiveQuote.LiveQuoteState<Ask, Quote>

export type QuoterOptions = {
  timers: Timers
  now(): number
  /** The API's best quote for an exact input (`Client.quote` with the account filled in). */
  quote(from: string, to: string, amount: bigint): Promise<Quote>
  /** The state changed. */
  changed(): void
}

/**
 * @example
 * const quoter = Quotes.create({ timers, now, quote: (from, to, amount) => client.quote({ … }), changed })
 * quoter.ask(checked.ask)
 */
export function create(options: QuoterOptions) {
  const live = LiveQuote.create<Ask, Quote>({
    timers: options.timers,
    changed: options.changed,
    async quote(ask) {
      const quote = ask.side === 'from' ? await exactIn(ask) : await exactOut(ask)
      if (BigInt(quote.toAmount) === 0n) throw new Error(swapTexts.dust)
      return quote
    },
    // Asked again when the API says the quote ends: not sooner than 1 s, not later than LiveQuote's refresh.
    ttl: (quote) => Math.min(Math.max(quote.expiresAt - options.now(), 1_000), LiveQuote.refreshMs),
  })

  const exactIn = (ask: Ask) => options.quote(ask.from.id, ask.to.id, ask.amount)

  async function exactOut(ask: Ask): Promise<Quote> {
    const wanted = ask.amount
    const quoteFor = (paying: bigint) => options.quote(ask.from.id, ask.to.id, paying > 0n ? paying : 1n)
    const guess = firstGuess(ask) ?? (await unitGuess(ask))
    const first = await quoteFor(guess)
    const firstGot = BigInt(first.toAmount)
    // Then in proportion to what the guess bought: right for a pool without price impact.
    let paying = scale(guess, wanted, firstGot)
    if (paying === undefined) return first
    const second = await quoteFor(paying)
    const got = BigInt(second.toAmount)
    if (got === wanted || got === firstGot) return second
    // Then along the line through the two answers (the secant), rounded up, and 2 millionths more: the
    // curve bends below its secant, and the visitor should get at least what they asked for.
    paying += ceilDiv((wanted - got) * (paying - guess), got - firstGot)
    paying += paying / 500_000n + 1n
    return quoteFor(paying)
  }

  /** `value × wanted ÷ got`, rounded up; undefined when `got` is nothing. */
  function scale(value: bigint, wanted: bigint, got: bigint): bigint | undefined {
    return got === 0n ? undefined : ceilDiv(value * wanted, got)
  }

  /** What the wanted amount costs at the tokens' prices; undefined without both prices. */
  function firstGuess(ask: Ask): bigint | undefined {
    if (!(ask.from.price > 0 && ask.to.price > 0)) return undefined
    // Prices as integers of 10^-9 USD, so the guess stays in bigint arithmetic.
    const scale = 1_000_000_000
    const fromPrice = BigInt(Math.round(ask.from.price * scale))
    const toPrice = BigInt(Math.round(ask.to.price * scale))
    if (fromPrice === 0n || toPrice === 0n) return undefined
    const guess =
      (ask.amount * toPrice * 10n ** BigInt(ask.from.decimals)) / (fromPrice * 10n ** BigInt(ask.to.decimals))
    return guess > 0n ? guess : 1n
  }

  /** What the wanted amount costs at the rate one whole `from` token gets. */
  async function unitGuess(ask: Ask): Promise<bigint> {
    const unit = 10n ** BigInt(ask.from.decimals)
    const perUnit = BigInt((await options.quote(ask.from.id, ask.to.id, unit)).toAmount)
    if (perUnit === 0n) throw new Error(swapTexts.noRoute)
    return (ask.amount * unit) / perUnit + 1n
  }

  return live
}

/** `a ÷ b` rounded away from zero toward +∞ for positive results, toward −∞ never (bigint division truncates). */
function ceilDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b
  return quotient * b === a || a < 0n !== b < 0n ? quotient : quotient + 1n
}
