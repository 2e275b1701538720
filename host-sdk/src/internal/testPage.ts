/**
 * Test support: the least of a browser page that the host SDK touches (elements, a document, the window's
 * events, the modal frame's window) so its browser half runs under Node without a DOM library. Nothing
 * here imitates layout or rendering. A frame delivers a message only to its own origin, as browsers do;
 * `serveModal` answers the handshake there with the real `Handshake.accept` and `Messenger`.
 */
import { Handshake, Messenger, Schema } from '@airlock/bridge-protocol'
import { afterEach, beforeEach, vi } from 'vitest'

/** What every element of a page can reach: its window, its document, its origin. */
type Context = {
  origin: string
  window: EventTarget
  document: { documentElement: FakeElement; activeElement: FakeElement }
}

export class FakeElement extends EventTarget {
  readonly attributes = new Map<string, string>()
  readonly style: Record<string, string> = { cssText: '', height: '', overflow: '' }
  readonly dataset: Record<string, string> = {}
  readonly children: FakeElement[] = []
  parent: FakeElement | undefined
  textContent = ''

  constructor(
    readonly tagName: string,
    readonly page: Context,
  ) {
    super()
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value)
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null
  }
  append(...nodes: FakeElement[]) {
    for (const node of nodes) {
      node.remove()
      node.parent = this
      this.children.push(node)
    }
  }
  replaceChildren(...nodes: FakeElement[]) {
    for (const child of [...this.children]) child.remove()
    this.append(...nodes)
  }
  remove() {
    this.parent?.children.splice(this.parent.children.indexOf(this), 1)
    this.parent = undefined
  }
  get isConnected(): boolean {
    return this === this.page.document.documentElement || (this.parent?.isConnected ?? false)
  }
  focus() {
    this.page.document.activeElement = this
  }
}

/** What the page posted into a frame, with the origin it named. */
type Posted = { data: unknown; targetOrigin: string; transfer: Transferable[] }

export class FakeIframe extends FakeElement {
  src = ''
  title = ''
  allow = ''
  referrerPolicy = ''
  readonly posted: Posted[] = []
  /** The frame's document: what a message posted into it reaches, if the origin matches. */
  readonly inside = new EventTarget()
  readonly contentWindow = {
    postMessage: (data: unknown, targetOrigin: string, transfer: Transferable[] = []) => {
      this.posted.push({ data, targetOrigin, transfer })
      if (targetOrigin !== '*' && targetOrigin !== new URL(this.src).origin) return
      const ports = transfer.filter((item): item is MessagePort => item instanceof MessagePort)
      const event = { data, origin: this.page.origin, source: this.page.window, ports }
      this.inside.dispatchEvent(Object.assign(new Event('message'), event))
    },
  }
  /** The frame's document finished loading. */
  load() {
    this.dispatchEvent(new Event('load'))
  }
}

export class FakeDialog extends FakeElement {
  open = false
  oncancel: ((event: Event) => void) | null = null
  constructor(tagName: string, page: Context) {
    super(tagName, page)
    // As a browser does: the handler property hears its event.
    this.addEventListener('cancel', (event) => this.oncancel?.(event))
  }
  showModal() {
    if (!this.isConnected) throw new Error('InvalidStateError: the dialog is not in the document')
    this.open = true
  }
  close() {
    this.open = false
  }
}

/**
 * Puts a page at `origin` in place of the browser's globals (undo with `vi.unstubAllGlobals()`).
 * @example
 * const page = installPage()
 * createAirlock({ … })
 * const [iframe] = page.frames()
 */
export function installPage(origin = 'https://shop.example') {
  const location = { origin, host: new URL(origin).host, href: `${origin}/` }
  const window = Object.assign(new EventTarget(), { open: () => null, location })
  // Elements reach the document through the page, which is made before them.
  const page: Context = {
    origin,
    window,
    get document() {
      return document
    },
  }
  const element = (tag: string) =>
    tag === 'iframe'
      ? new FakeIframe(tag, page)
      : tag === 'dialog'
        ? new FakeDialog(tag, page)
        : new FakeElement(tag, page)
  const documentElement = new FakeElement('html', page)
  const body = new FakeElement('body', page)
  const head = new FakeElement('head', page)
  documentElement.append(head, body)
  const document = {
    readyState: 'complete',
    currentScript: null,
    documentElement,
    head,
    body,
    activeElement: body as FakeElement,
    createElement: element,
    querySelector: () => null,
  }
  vi.stubGlobal('window', window)
  vi.stubGlobal('document', document)
  vi.stubGlobal('HTMLElement', FakeElement)
  vi.stubGlobal('location', location)
  for (const name of ['addEventListener', 'removeEventListener', 'dispatchEvent'] as const)
    vi.stubGlobal(name, window[name].bind(window))
  const all = (tag: string, from: FakeElement = documentElement): FakeElement[] =>
    from.children.flatMap((child) => [...(child.tagName === tag ? [child] : []), ...all(tag, child)])
  return {
    ...page,
    document,
    /** The frames now in the document. */
    frames: () => all('iframe') as FakeIframe[],
    dialogs: () => all('dialog') as FakeDialog[],
  }
}

/** The modal's answers; each defaults to what an idle, disconnected modal says. */
type ModalOverrides = Partial<Schema.ModalApi>

/**
 * Answers the handshake inside `iframe` as the modal does, and serves the modal's side of the bridge.
 * Resolves with the modal's handle on the host once the host is welcomed.
 */
export async function serveModal(iframe: FakeIframe, overrides: ModalOverrides = {}) {
  const accepted = Handshake.accept({
    window: {
      parent: iframe.page.window as Window,
      addEventListener: iframe.inside.addEventListener.bind(iframe.inside),
      removeEventListener: iframe.inside.removeEventListener.bind(iframe.inside),
    },
    projectId: 'demo',
    isAllowed: () => true,
  })
  iframe.load()
  const { port } = await accepted
  const implementation: Schema.ModalApi = {
    open: () => undefined,
    close: () => undefined,
    request: () => null,
    getState: () => ({ open: false, view: 'Connect', status: 'disconnected', namespaces: {} }),
    disconnect: () => undefined,
    switchNetwork: () => undefined,
    walletsChanged: () => undefined,
    walletEvent: () => undefined,
    signOut: () => undefined,
    ping: () => 'pong',
    pay: () => `0x${'a'.repeat(64)}`,
    ...overrides,
  }
  return Messenger.create({ port, local: Schema.modalApi, implementation, peer: Schema.hostApi })
}

/**
 * Fakes only the clock for every test of the calling file: messages still cross real MessageChannels, in
 * real event-loop turns. Undoes the page and any spies after each test.
 */
export function fakeClock() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })
}

/**
 * Moves the fake clock on by `ms`, 100 ms at a time, letting real messages through in between: the host's
 * heartbeat asks a busy modal every 250 ms whether it still answers, and the answer must have a chance to
 * arrive before the 1.5 s of silence that would count the modal as gone.
 */
export async function pass(ms: number) {
  for (let left = ms; left > 0; left -= 100) {
    await vi.advanceTimersByTimeAsync(Math.min(100, left))
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve))
  }
}
