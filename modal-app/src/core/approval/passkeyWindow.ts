/**
 * The approval window's passkey ceremony: the frame's texts and one button, which runs the ceremony in the
 * visitor's click here, a top-level page of the modal origin (the relying party), then answers the frame
 * with the outcome and closes.
 */
import * as Ceremony from '../../shared/webauthn/Ceremony.ts'
import type { Passkey, PasskeyDone } from './passkeyProtocol.ts'

export function render(doc: Document, asked: Passkey, answer: (done: PasskeyDone) => void) {
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string) => {
    const node = doc.createElement(tag)
    if (text !== undefined) node.textContent = text
    return node
  }
  doc.title = asked.title
  const main = element('main')
  main.className = 'card'
  const go = element('button', asked.action)
  go.type = 'button'
  go.className = 'primary'
  go.addEventListener('click', () => {
    go.disabled = true
    Ceremony.run(asked.request).then(
      (result) => answer({ type: 'airlock:passkey-done', result }),
      (error: unknown) =>
        answer({ type: 'airlock:passkey-done', error: error instanceof Error ? error.name : 'Error' }),
    )
  })
  const cancel = element('button', asked.cancel)
  cancel.type = 'button'
  cancel.className = 'cancel'
  cancel.addEventListener('click', () => answer({ type: 'airlock:passkey-done' }))
  main.append(element('h1', asked.title), element('p', asked.question), go, cancel)
  doc.body.replaceChildren(main)
  cancel.focus()
}
