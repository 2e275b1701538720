/**
 * A window of the modal's own origin, opened in the visitor's click. There a page that frames the modal can
 * neither hide nor cover what is approved (clickjacking: see `ui/Guard.tsx`), and the storage is
 * first-party, so it can keep what a browser denies the frame (see `connectors/walletconnect/Kept.ts`).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { texts } from '../../shared/texts.ts'
import { type Ask, answer, hello, path } from './protocol.ts'

export type Question = Omit<Ask, 'type' | 'waiting'>

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
export async function ask(question: Question, self: Window = window): Promise<string | undefined> {
  const ask = { type: 'airlock:ask', ...question, waiting: texts.guard.waiting } satisfies Ask
  const reply = await talk(self, ask, answer)
  const id = reply?.id ?? undefined
  return id !== undefined && question.choices.some((c) => c.id === id) ? id : undefined
}

/**
 * Opens the window, says `message` once it listens (and it is there), and resolves with its one reply;
 * `undefined` when the window closed first, or `message` failed. Call it synchronously inside the click.
 */
export function talk<T>(
  self: Window,
  message: object | Promise<object>,
  reply: S.Shape<T>,
): Promise<T | undefined> {
  const popup = self.open(new URL(path, self.location.origin).href, '_blank', 'popup,width=420,height=640')
  if (!popup) return Promise.reject(new WindowBlockedError('The approval window was blocked.'))
  return new Promise((resolve) => {
    let port: MessagePort | undefined
    const done = (value: T | undefined) => {
      self.removeEventListener('message', onHello)
      clearInterval(poll)
      port?.close()
      if (!popup.closed) popup.close()
      resolve(value)
    }
    const onHello = (event: MessageEvent) => {
      // Only the window this click opened, on this very origin, and only its first hello.
      if (port || event.source !== popup || event.origin !== self.location.origin) return
      if (!S.parse(hello, event.data).ok || event.ports.length !== 1) return
      port = event.ports[0] as MessagePort
      port.onmessage = (received) => {
        const parsed = S.parse(reply, received.data)
        if (parsed.ok) done(parsed.value)
      }
      Promise.resolve(message).then(
        (said) => port?.postMessage(said),
        () => done(undefined),
      )
    }
    self.addEventListener('message', onHello)
    const poll = setInterval(() => {
      if (popup.closed) done(undefined)
    }, closedPollMs)
  })
}
