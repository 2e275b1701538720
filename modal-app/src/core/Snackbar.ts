/**
 * The snackbar: one message at a time. A new one replaces an open one after 150 ms (the old one closes
 * first, so the eye sees a new message rather than a changed one); success and error close by themselves,
 * loading stays until replaced. And the card's shake, which marks a failure for 500 ms.
 */

import { Async } from '@airlock/bridge-protocol'

type Variant = 'loading' | 'success' | 'error'
export type Snack = { id: number; variant: Variant; message: string }

const swapDelay = 150
const autoCloseDelay = 2_500

export type Timers = Async.Timers
export const realTimers = Async.realTimers

export type Snackbar = {
  current(): Snack | undefined
  /**
   * Shows `message`, unless the view on screen says it itself (`inView`: an error beside its button, a
   * transaction's status): docs/behaviour.md §2 asks for one message per failure, so the snackbar then only closes what it
   * held, the progress that led there.
   */
  show(variant: Variant, message: string, options?: { inView?: boolean }): void
  /**
   * The view changed: a message about the view left behind is stale and goes at once. One shown in the same
   * task as the change (an error that sends the visitor back) is about the move, so it stays.
   */
  left(): void
}

/** @example const snackbar = Snackbar.create({ onChange: render }); snackbar.show('success', 'Address copied') */
export function create(options: { onChange: () => void; timers?: Timers }): Snackbar {
  const { onChange, timers = realTimers } = options
  let current: Snack | undefined
  let counter = 0
  let timer: unknown
  let fresh = false

  const set = (snack: Snack | undefined) => {
    current = snack
    onChange()
  }
  const schedule = (callback: () => void, ms: number) => {
    timers.clearTimeout(timer)
    timer = timers.setTimeout(callback, ms)
  }
  const present = (snack: Snack) => {
    set(snack)
    if (snack.variant === 'loading') timers.clearTimeout(timer)
    else schedule(() => set(undefined), autoCloseDelay)
  }

  return {
    current: () => current,
    show(variant, message, options) {
      if (options?.inView) {
        // A message still waiting to swap in is that progress too.
        timers.clearTimeout(timer)
        if (current) set(undefined)
        return
      }
      const snack = { id: ++counter, variant, message }
      fresh = true
      queueMicrotask(() => {
        fresh = false
      })
      if (!current) return present(snack)
      set(undefined)
      schedule(() => present(snack), swapDelay)
    },
    left() {
      if (fresh || !current) return
      timers.clearTimeout(timer)
      set(undefined)
    },
  }
}

/** Whether the modal shows `view` now: a message that view says itself needs no snack (`inView`). */
export function onScreen(router: { view(): string; isOpen(): boolean }, view: string): boolean {
  return router.isOpen() && router.view() === view
}

/** How long the card shakes after a failure. */
const shakeMs = 500

/** The card's shake: a new one restarts it. */
export function shaker(timers: Timers, onChange: () => void) {
  let timer: unknown
  let active = false
  return {
    active: () => active,
    start() {
      if (active) timers.clearTimeout(timer)
      active = true
      timer = timers.setTimeout(() => {
        active = false
        onChange()
      }, shakeMs)
      onChange()
    },
  }
}
export type Shaker = ReturnType<typeof shaker>
