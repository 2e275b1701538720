/**
 * Buy's live quote (shared/LiveQuote.ts): asked once the visitor pauses typing, asked again every 15 s while
 * the form shows and marked stale in between, so Continue never opens a checkout on an old price.
 */
import type * as Contract from '@airlock/api/contract'
import type { Timers } from '../../core/Snackbar.ts'
import * as LiveQuote from '../../shared/LiveQuote.ts'

export type Quote = Contract.OnrampQuoteAnswer
export type Ask = Contract.OnrampQuoteBody
export type QuoteState = LiveQuote.LiveQuoteState<Ask, Quote>

/**
 * @example
 * const quoter = Quote.create({ timers, quote: (ask) => client.quote(ask), changed })
 * quoter.ask({ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'eip155:1' })
 */
export function create(options: { timers: Timers; quote(ask: Ask): Promise<Quote>; changed(): void }) {
  return LiveQuote.create<Ask, Quote>(options)
}
