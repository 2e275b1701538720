/**
 * Asks the visitor in a window of the modal's own origin, where a page that frames the modal cannot hide or
 * cover what is approved (clickjacking). Used when the frame cannot prove it is visible: see `ui/Guard.tsx`.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { type Ask, answer, hello, path } from './protocol.ts'

export type Question = Omit<Ask, 'type'>

/** The window was blocked (no click in hand) or closed before it could ask. */
class WindowBlockedError extends Error {
  override name = 'WindowBlockedError'
}

/** How often a window that may have been closed without answering is looked at. */
const closedPollMs = 300

/**
 * Opens the approval window and resolves with the chosen id, or `undefined` when the visitor cancelled or
 * closed it. Call it synchronously inside the click: browsers open windows only then.
 * @example
 * button.onclick = () => Approval.ask({ title, origin, question, choices, cancel }).then(run)
 */
export function ask(question: Question, self: Window = window): Promise<string | undefined> {
  const popup = self.open(new URL(path, self.location.origin).href, '_blank', 'popup,width=420,height=640')
  if (!popup) return Promise.reject(new WindowBlockedError('The approval window was blocked.'))
  return new Promise((resolve) => {
    let port: MessagePort | undefined
    const done = (id: string | undefined) => {
      self.removeEventListener('message', onHello)
      clearInterval(poll)
      port?.close()
      if (!popup.closed) popup.close()
      resolve(id !== undefined && question.choices.some((c) => c.id === id) ? id : undefined)
    }
    const onHello = (event: MessageEvent) => {
      // Only the window this click opened, on this very origin, and only its first hello.
      if (port || event.source !== popup || event.origin !== self.location.origin) return
      if (!S.parse(hello, event.data).ok || event.ports.length !== 1) return
      port = event.ports[0] as MessagePort
      port.onmessage = (message) => {
        const parsed = S.parse(answer, message.data)
        if (parsed.ok) done(parsed.value.id ?? undefined)
      }
      port.postMessage({ type: 'airlock:ask', ...question } satisfies Ask)
    }
    self.addEventListener('message', onHello)
    const poll = setInterval(() => {
      if (popup.closed) done(undefined)
    }, closedPollMs)
  })
}
