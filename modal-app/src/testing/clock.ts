/**
 * Test support: the kernel's clock moved by hand. `now` starts where the test says, and timers fire only as
 * `advance` passes them, in order, each seeing the time it was due at.
 */
import type { Timers } from '../core/Snackbar.ts'

export function manualClock(start = 0) {
  let now = start
  let serial = 0
  let pending: { id: number; at: number; callback: () => void }[] = []
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      pending.push({ id: ++serial, at: now + ms, callback })
      return serial
    },
    clearTimeout: (id) => {
      pending = pending.filter((timer) => timer.id !== id)
    },
  }
  const advance = (ms: number) => {
    const until = now + ms
    for (;;) {
      const due = pending.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      pending = pending.filter((timer) => timer !== due)
      now = due.at
      due.callback()
    }
    now = until
  }
  /** How far off each pending timer is. */
  const waiting = () => pending.map((timer) => timer.at - now)
  return { now: () => now, timers, advance, waiting }
}
