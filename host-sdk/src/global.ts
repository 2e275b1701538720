/**
 * `window.airlock` for pages that load airlock.js with a script tag; the script sets it before any later
 * script runs (an `async` or `defer` one: wait for `airlock:ready`).
 * @example
 * /// <reference types="@airlock/host-sdk/global" />
 * document.querySelector('button')?.addEventListener('click', () => window.airlock.open())
 */
import type { Airlock } from './Airlock.ts'

declare global {
  interface Window {
    airlock: Airlock
  }
  interface WindowEventMap {
    /** airlock.js has set `window.airlock`. */
    'airlock:ready': Event
  }
}
