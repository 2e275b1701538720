/**
 * A form's live quote (Swap's, Buy's): asked once the visitor pauses typing (docs/behaviour.md §9: 500 ms), asked again
 * when it expires while the form shows and marked stale in the meantime, so nothing is confirmed on an old
 * price; an answer for an older ask is dropped.
 */
import type { Timers } from '../core/Snackbar.ts'

/** docs/behaviour.md §9: the pause after the last keystroke before asking. */
const debounceMs = 500
/** A quote is asked again at the latest this long after it was read. */
export const refreshMs = 15_000

export type LiveQuoteState<A, Q> =
  | { status: 'idle' }
  | { status: 'loading'; ask: A; previous?: Q | undefined }
  | { status: 'ready'; ask: A; quote: Q; stale: boolean }
  | { status: 'error'; ask: A; message: string }

/** The quote a form shows: the ready one, else the one being replaced (shown stale), else none. */
export function shown<A, Q>(state: LiveQuoteState<A, Q>): Q | undefined {
  if (state.status === 'ready') return state.quote
  if (state.status === 'loading') return state.previous
  return undefined
}

export type LiveQuoteOptions<A, Q> = {
  timers: Timers
  /** The quote for `ask`; a rejection's message is what the visitor reads. */
  quote(ask: A): Promise<Q>
  /** How long `quote` holds before it is asked again. @default refreshMs */
  ttl?: ((quote: Q) => number) | undefined
  /** The state changed. */
  changed(): void
}

/**
 * @example
 * const quoter = LiveQuote.create({ timers, quote: (ask) => client.quote(ask), changed })
 * quoter.ask({ amount: '100' })
 */
export function create<A, Q>(options: LiveQuoteOptions<A, Q>) {
  const { timers } = options
  let state: LiveQuoteState<A, Q> = { status: 'idle' }
  let generation = 0
  let timer: unknown

  const set = (next: LiveQuoteState<A, Q>) => {
    state = next
    options.changed()
  }
  const clear = () => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = undefined
  }

  async function fetchFor(ask: A, mine: number) {
    try {
      const quote = await options.quote(ask)
      if (mine !== generation) return
      set({ status: 'ready', ask, quote, stale: false })
      timer = timers.setTimeout(() => {
        if (mine !== generation || state.status !== 'ready') return
        set({ ...state, stale: true })
        run(ask, 0)
      }, options.ttl?.(quote) ?? refreshMs)
    } catch (error) {
      if (mine !== generation) return
      set({ status: 'error', ask, message: error instanceof Error ? error.message : String(error) })
    }
  }

  function run(ask: A, delay: number) {
    clear()
    const mine = ++generation
    const previous = state.status === 'ready' ? state.quote : undefined
    timer = timers.setTimeout(() => {
      timer = undefined
      if (mine !== generation) return
      set({ status: 'loading', ask, previous })
      void fetchFor(ask, mine)
    }, delay)
  }

  return {
    state: () => state,
    /** Quotes `ask` after the typing pause; undefined clears the quote (an incomplete form). */
    ask(ask: A | undefined) {
      if (ask) return run(ask, debounceMs)
      clear()
      generation++
      if (state.status !== 'idle') set({ status: 'idle' })
    },
    /** Asks again now (a review found the quote stale, or a retry). */
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
