/**
 * Buy's live quote: asked once the visitor pauses typing (SPEC §9: 500 ms), asked again every 15 s while
 * the form shows and marked stale in between, so Continue never opens a checkout on an old price; an answer
 * for an older ask is dropped.
 */
import type * as Contract from '@airlock/api/contract'
import type { Timers } from '../../core/Snackbar.ts'

/** SPEC §9: the pause after the last keystroke before asking. */
const debounceMs = 500
/** A quote is asked again this long after it was read. */
const refreshMs = 15_000

export type Quote = Contract.OnrampQuoteAnswer
export type Ask = Contract.OnrampQuoteBody

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading'; ask: Ask; previous?: Quote | undefined }
  | { status: 'ready'; ask: Ask; quote: Quote; stale: boolean }
  | { status: 'error'; ask: Ask; message: string }

/**
 * @example
 * const quoter = Quote.create({ timers, quote: (ask) => client.quote(ask), changed })
 * quoter.ask({ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'eip155:1' })
 */
export function create(options: { timers: Timers; quote(ask: Ask): Promise<Quote>; changed(): void }) {
  const { timers } = options
  let state: QuoteState = { status: 'idle' }
  let generation = 0
  let timer: unknown

  const set = (next: QuoteState) => {
    state = next
    options.changed()
  }
  const clear = () => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = undefined
  }

  function run(ask: Ask, delay: number) {
    clear()
    const mine = ++generation
    const previous = state.status === 'ready' ? state.quote : undefined
    timer = timers.setTimeout(async () => {
      timer = undefined
      if (mine !== generation) return
      set({ status: 'loading', ask, previous })
      try {
        const quote = await options.quote(ask)
        if (mine !== generation) return
        set({ status: 'ready', ask, quote, stale: false })
        timer = timers.setTimeout(() => {
          if (mine !== generation || state.status !== 'ready') return
          set({ ...state, stale: true })
          run(ask, 0)
        }, refreshMs)
      } catch (error) {
        if (mine === generation)
          set({ status: 'error', ask, message: error instanceof Error ? error.message : String(error) })
      }
    }, delay)
  }

  return {
    state: () => state,
    /** Quotes `ask` after the typing pause; undefined clears the quote (an incomplete form). */
    ask(ask: Ask | undefined) {
      if (ask) return run(ask, debounceMs)
      clear()
      generation++
      if (state.status !== 'idle') set({ status: 'idle' })
    },
    /** Asks again now. */
    refresh() {
      if (state.status !== 'idle') run(state.ask, 0)
    },
    /** The form closed: no more asking, and no answer lands. */
    stop() {
      clear()
      generation++
      state = { status: 'idle' }
    },
  }
}
