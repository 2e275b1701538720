/**
 * The clickjacking guard's clock. Seeing the card visible once is not enough: a page that frames the modal
 * can lift a decoy or raise the opacity a moment before a click it expects, or slip a request in between the
 * two clicks of a double-click, so that the second lands on an approval nobody has read. An approval arms
 * only once the card has been in sight without a break for {@link dwellMs}, counted again from the moment
 * the approval itself showed (each new request starts its own count), as browsers do for their own
 * permission prompts. Pure but for the clock, which tests replace with one they move.
 */
import * as Async from '@airlock/bridge-protocol/Async'

/** How long an approval must have been in plain sight before a click or a key can approve it. */
const dwellMs = 500

/** Time as the guard reads it, in milliseconds, and timers to wake at a time. */
export type Clock = Async.Timers & { now(): number }

/** The page's monotonic clock and timers. */
const systemClock: Clock = { ...Async.realTimers, now: () => performance.now() }

/** What IntersectionObserver v2 last said of the card (see `Guard.tsx`). */
export type Visibility = 'pending' | 'visible' | 'hidden' | 'unverifiable'

/** The card's sight: what was last seen, and since when it has been visible without a break. */
export type Sight = { visibility: Visibility; since: number | undefined }

/**
 * When an approval shown at `shownAt` arms: {@link dwellMs} after the later of that and the start of the
 * card's sight; never while the card is out of sight.
 */
export function armsAt(sight: Sight, shownAt: number): number | undefined {
  return sight.since === undefined ? undefined : Math.max(sight.since, shownAt) + dwellMs
}

export type Dwell = ReturnType<typeof create>

/**
 * The card's sight over time. `saw` takes what the observer reports, synchronously, so that a click checked
 * with `armed` in the same moment knows it, before any render.
 * @example
 * const dwell = Dwell.create()
 * observer = new IntersectionObserver(([entry]) => dwell.saw(entry.isVisible ? 'visible' : 'hidden'), init)
 * button.onclick = () => dwell.armed(shownAt) && approve()
 */
export function create(clock: Clock = systemClock) {
  let sight: Sight = { visibility: 'pending', since: undefined }
  const listeners = new Set<() => void>()
  return {
    clock,
    /** The sight as last seen; a new object only when it changed. */
    sight: (): Sight => sight,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** What the observer says now. Visible again after anything else starts a new count. */
    saw(visibility: Visibility) {
      const since = visibility === 'visible' ? (sight.since ?? clock.now()) : undefined
      if (visibility === sight.visibility && since === sight.since) return
      sight = { visibility, since }
      for (const listener of [...listeners]) listener()
    },
    /** Whether an approval shown at `shownAt` may be approved at this very moment. */
    armed(shownAt: number): boolean {
      const at = armsAt(sight, shownAt)
      return at !== undefined && clock.now() >= at
    },
  }
}
