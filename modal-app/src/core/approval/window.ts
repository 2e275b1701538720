/**
 * The approval window itself (`approve.html`): plain DOM, no framework, so it opens at once. It shows the
 * frame's question and sends back the choice, or keeps what the frame may not (first-party storage) and
 * closes, or runs a passkey ceremony the frame may not (`passkeyWindow.ts`). Framed, it does nothing: its
 * whole worth is that it is a top-level window of the modal origin. No page can draw over it, but one can
 * still aim a keypress or a double-click's second click at it as it opens: Cancel has the focus, and the
 * choices wait as the modal's approvals do (`ui/Dwell.ts`).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import * as Dwell from '../ui/Dwell.ts'
import { passkey } from './passkeyProtocol.ts'
import * as PasskeyWindow from './passkeyWindow.ts'
import { type Ask, ask, keep } from './protocol.ts'
import * as WindowStore from './windowStore.ts'

function start(self: Window) {
  const opener = self.opener as Window | null
  if (self.top !== self || !opener) return
  const { port1, port2 } = new MessageChannel()
  port1.onmessage = (event) => {
    const keeping = S.parse(keep, event.data)
    if (keeping.ok) {
      port1.onmessage = null
      void WindowStore.keep(self.localStorage, keeping.value).then((entries) => {
        port1.postMessage({ type: 'airlock:kept', entries })
        self.close()
      })
      return
    }
    const ceremony = S.parse(passkey, event.data)
    if (ceremony.ok) {
      port1.onmessage = null
      PasskeyWindow.render(self.document, ceremony.value, (done) => {
        port1.postMessage(done)
        self.close()
      })
      return
    }
    const parsed = S.parse(ask, event.data)
    if (!parsed.ok) return
    port1.onmessage = null
    render(self.document, parsed.value, (id) => {
      port1.postMessage({ type: 'airlock:answer', id })
      self.close()
    })
  }
  // Pinned to this origin: were the opener anything but the modal frame, the port would go nowhere.
  opener.postMessage({ type: 'airlock:approval' }, self.location.origin, [port2])
}

function render(doc: Document, question: Ask, answer: (id: string | null) => void) {
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string) => {
    const node = doc.createElement(tag)
    if (text !== undefined) node.textContent = text
    return node
  }
  doc.title = question.title
  const main = element('main')
  main.className = 'card'
  const heading = element('h1', question.title)
  const lead = element('p')
  lead.append(element('strong', question.origin), ` ${question.question}`)
  const list = element('ul')
  list.className = 'choices'
  const waiting = element('span', question.waiting)
  waiting.id = 'waiting'
  waiting.hidden = true
  const choices: HTMLButtonElement[] = []
  for (const choice of question.choices) {
    const button = element('button')
    button.type = 'button'
    choices.push(button)
    if (choice.icon) {
      const icon = element('img')
      icon.src = choice.icon
      icon.alt = ''
      icon.width = 32
      icon.height = 32
      button.append(icon)
    }
    button.append(element('span', choice.label))
    button.addEventListener('click', () => answer(choice.id))
    const item = element('li')
    item.append(button)
    list.append(item)
  }
  const cancel = element('button', question.cancel)
  cancel.type = 'button'
  cancel.className = 'cancel'
  cancel.addEventListener('click', () => answer(null))
  main.append(heading, lead, list, cancel, waiting)
  doc.body.replaceChildren(main)
  cancel.focus()
  armWhenSeen(doc, choices, question.waiting ? waiting.id : undefined)
}

/**
 * Keeps `choices` disabled until the window has been showing for 500 ms (`ui/Dwell.ts`) without being hidden (a
 * window behind another, or minimised, starts the count again); while they wait they point assistive
 * technology at `waitingId`.
 */
function armWhenSeen(doc: Document, choices: HTMLButtonElement[], waitingId: string | undefined) {
  const dwell = Dwell.create()
  const shownAt = dwell.clock.now()
  let timer: unknown
  const update = () => {
    dwell.saw(doc.visibilityState === 'visible' ? 'visible' : 'hidden')
    const armed = dwell.armed(shownAt)
    for (const button of choices) {
      button.disabled = !armed
      if (waitingId && !armed) button.setAttribute('aria-describedby', waitingId)
      else button.removeAttribute('aria-describedby')
    }
    dwell.clock.clearTimeout(timer)
    const at = Dwell.armsAt(dwell.sight(), shownAt)
    if (!armed && at !== undefined) timer = dwell.clock.setTimeout(update, Math.ceil(at - dwell.clock.now()))
  }
  doc.addEventListener('visibilitychange', update)
  update()
}

start(window)
