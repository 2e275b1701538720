/**
 * The page the API's social callback sends the login window to (`social.html#handoff=…` or `#error=…`).
 * Plain DOM, no framework: it takes the fragment out of the address, hands it to the modal frame that
 * opened the window, and closes. Opened any other way it says so and does nothing.
 */

import * as S from '@airlock/bridge-protocol/Shape'
import { type Message, message } from './protocol.ts'

const texts = {
  alone:
    'This window finishes a sign-in started in Airlock. Opened on its own, it has nothing to do: you can close it.',
  unreadable: 'This sign-in could not be read. Close this window and try again.',
}

/**
 * The message a fragment stands for: exactly one `handoff=` or `error=` entry that reads as one.
 * @example read('#error=access_denied') // { type: 'airlock:social', error: 'access_denied' }
 */
export function read(fragment: string): Message | undefined {
  const entries = [...new URLSearchParams(fragment.replace(/^#/, ''))]
  const [key, value] = entries.length === 1 ? (entries[0] ?? []) : []
  if (key !== 'handoff' && key !== 'error') return undefined
  const parsed = S.parse(message, { type: 'airlock:social', [key]: value })
  return parsed.ok ? parsed.value : undefined
}

/** Runs the page in `self`, the login window (`social.html` calls it with `window`). */
export function land(self: Window): void {
  const { location } = self
  const landed = read(location.hash)
  // A handoff is spent at once, but it must not sit in the address bar, the history or a bookmark meanwhile.
  if (location.hash) self.history.replaceState(null, '', `${location.pathname}${location.search}`)
  const opener = self.opener as Window | null
  if (!opener || opener === self || self.top !== self) {
    say(self.document, texts.alone)
    return
  }
  if (!landed) {
    say(self.document, texts.unreadable)
    return
  }
  // Pinned to this origin: were the opener anything but a modal frame, the handoff would go nowhere.
  opener.postMessage(landed, location.origin)
  self.close()
}

function say(doc: Document, text: string) {
  const status = doc.getElementById('status')
  if (status) status.textContent = text
}
