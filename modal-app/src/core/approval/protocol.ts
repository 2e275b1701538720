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
