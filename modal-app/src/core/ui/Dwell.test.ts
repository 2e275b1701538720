import { describe, expect, it, vi } from 'vitest'
import { manualClock } from '../../testing/clock.ts'
import * as Dwell from './Dwell.ts'

/** A dwell on a clock the test moves by hand (nothing here sleeps), its card in sight from `visibleAt`. */
function seenAt(visibleAt: number) {
  const time = manualClock(visibleAt)
  const dwell = Dwell.create({ ...time.timers, now: time.now })
  dwell.saw('visible')
  return { time, dwell }
}

describe('Dwell', () => {
  it('arms an approval once the card has been in sight for 500 ms, not a millisecond before', () => {
    const { time, dwell } = seenAt(1_000)
    time.advance(499)
    expect(dwell.armed(1_000)).toBe(false)
    time.advance(1)
    expect(dwell.armed(1_000)).toBe(true)
  })

  it('counts again from a new approval shown in a card long in sight (a request slipped in between two clicks)', () => {
    const { time, dwell } = seenAt(0)
    time.advance(60_000)
    expect(dwell.armed(0)).toBe(true)
    // The second click of a double-click comes well within 500 ms of the request that the first one let in.
    time.advance(200)
    expect(dwell.armed(60_000)).toBe(false)
    time.advance(300)
    expect(dwell.armed(60_000)).toBe(true)
    expect(Dwell.armsAt(dwell.sight(), 60_000)).toBe(60_500)
  })

  it('counts from when the card came into sight, for an approval shown while it was covered or faded', () => {
    const { time, dwell } = seenAt(0)
    dwell.saw('hidden')
    time.advance(5_000)
    dwell.saw('visible')
    expect(dwell.armed(0)).toBe(false)
    time.advance(499)
    expect(dwell.armed(0)).toBe(false)
    time.advance(1)
    expect(dwell.armed(0)).toBe(true)
  })

  it('starts over after any break in sight: a decoy lifted just before the click arms nothing', () => {
    const { time, dwell } = seenAt(0)
    time.advance(10_000)
    dwell.saw('hidden')
    expect(dwell.armed(0)).toBe(false)
    time.advance(100)
    dwell.saw('visible')
    time.advance(1)
    expect(dwell.armed(0)).toBe(false)
    time.advance(499)
    expect(dwell.armed(0)).toBe(true)
  })

  it('never arms while the card is out of sight, not yet looked at, or cannot be looked at', () => {
    for (const visibility of ['hidden', 'pending', 'unverifiable'] as const) {
      const { time, dwell } = seenAt(0)
      dwell.saw(visibility)
      time.advance(3_600_000)
      expect(dwell.armed(0), visibility).toBe(false)
      expect(Dwell.armsAt(dwell.sight(), 0), visibility).toBeUndefined()
    }
  })

  it('keeps the start of the sight while the observer says visible again, and tells listeners only of changes', () => {
    const { time, dwell } = seenAt(100)
    const listener = vi.fn()
    const stop = dwell.subscribe(listener)
    time.advance(300)
    dwell.saw('visible')
    expect(dwell.sight()).toEqual({ visibility: 'visible', since: 100 })
    expect(listener).not.toHaveBeenCalled()
    dwell.saw('hidden')
    expect(dwell.sight()).toEqual({ visibility: 'hidden', since: undefined })
    expect(listener).toHaveBeenCalledTimes(1)
    stop()
    dwell.saw('visible')
    expect(listener).toHaveBeenCalledTimes(1)
  })
})
