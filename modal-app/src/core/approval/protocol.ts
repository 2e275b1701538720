/**
 * The approval window's channel. The modal frame opens a window of its own origin (no page can draw over a
 * top-level window), the window hands the frame a `MessagePort` through `window.opener`, the frame asks its
 * question on the port and the window answers with the visitor's choice. Both ends are this origin's code;
 * each checks the other's origin and window, and parses every message with these shapes.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** The path of the approval window on the modal origin. */
export const path = '/approve.html'

/** The window, once it listens: posted to its opener, pinned to its own origin, with one port. */
export const hello = S.object({ type: S.literal('airlock:approval') })

const choice = S.object({
  id: S.string(200, 1),
  label: S.string(200, 1),
  icon: S.optional(S.string(200_000)),
})

/** What the frame asks; every text comes from the frame, so the window carries none of its own. */
export const ask = S.object({
  type: S.literal('airlock:ask'),
  title: S.string(200, 1),
  /** The page that asks, as the browser reported its origin to the frame. */
  origin: S.string(300, 1),
  question: S.string(300, 1),
  choices: S.array(choice, 64),
  cancel: S.string(100, 1),
})
export type Ask = S.Infer<typeof ask>

/** The visitor's choice, or `null` for Cancel. */
export const answer = S.object({ type: S.literal('airlock:answer'), id: S.nullable(S.string(200, 1)) })

/** Entries the window keeps for the frame: names and JSON texts, a WalletConnect session's worth at most. */
const entries = S.record(S.string(1_000_000), 512)

/**
 * What the frame asks the window to keep where the browser gives the frame no storage: the window is a
 * top-level page of the modal origin, so its storage is first-party and outlives the page load. Kept under
 * the page the frame serves (as the browser reported its origin); `put` replaces what is kept there, `{}`
 * forgets it, and without `put` the window only reads.
 */
export const keep = S.object({
  type: S.literal('airlock:keep'),
  scope: S.string(300, 1),
  put: S.optional(entries),
})
export type Keep = S.Infer<typeof keep>

/** What is kept under the scope once the put is done. */
export const kept = S.object({ type: S.literal('airlock:kept'), entries })
