import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Handshake from './Handshake.ts'
import { protocolVersion } from './Schema.ts'

/** A stand-in for the modal's window: it only needs to dispatch message events and know its parent. */
function modalWindow() {
  const target = new EventTarget()
  const parent = { name: 'parent' } as unknown as Window
  const stranger = { name: 'stranger' } as unknown as Window
  const post = (data: unknown, init: { origin?: string; source?: unknown; ports?: MessagePort[] } = {}) =>
    // Node's MessageEvent only takes MessagePort sources, so the browser's event is imitated.
    target.dispatchEvent(
      Object.assign(new Event('message'), {
        data,
        origin: init.origin ?? 'http://localhost:5173',
        source: init.source === undefined ? parent : init.source,
        ports: init.ports ?? [],
      }),
    )
  const self = {
    parent,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  } as unknown as Window
  return { self, parent, stranger, post }
}

const hello = { type: 'airlock:hello', version: protocolVersion, projectId: 'demo' }

function replyOn(port: MessagePort): Promise<unknown> {
  return new Promise((resolve) => {
    port.onmessage = (event) => resolve(event.data)
  })
}

describe('Handshake.accept', () => {
  it('accepts a hello from the parent with an allowed origin and welcomes it on the port', async () => {
    const { self, post } = modalWindow()
    const accepted = Handshake.accept({
      window: self,
      projectId: 'demo',
      isAllowed: (o) => o === 'http://localhost:5173',
    })
    const { port1, port2 } = new MessageChannel()
    const reply = replyOn(port1)
    post(hello, { ports: [port2] })
    const { origin } = await accepted
    expect(origin).toBe('http://localhost:5173')
    expect(await reply).toEqual({ type: 'airlock:welcome', version: protocolVersion })
    port1.close()
  })

  it('rejects a handshake from a window that is not the parent', async () => {
    const { self, post, stranger } = modalWindow()
    let settled = false
    Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true }).then(() => {
      settled = true
    })
    const { port1, port2 } = new MessageChannel()
    post(hello, { ports: [port2], source: stranger })
    post(hello, { ports: [port2], source: null })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(settled).toBe(false)
    port1.close()
  })

  it('refuses an origin the project does not allow, with 4100, and says why', async () => {
    const { self, post } = modalWindow()
    const refusals: string[] = []
    Handshake.accept({
      window: self,
      projectId: 'demo',
      isAllowed: () => false,
      onRefused: (why, origin) => refusals.push(`${why} ${origin}`),
    })
    const { port1, port2 } = new MessageChannel()
    const reply = replyOn(port1)
    post(hello, { ports: [port2], origin: 'http://127.0.0.1:5175' })
    expect(await reply).toEqual({ type: 'airlock:refused', code: 4100, message: 'Invalid App Configuration' })
    expect(refusals).toEqual(['origin http://127.0.0.1:5175'])
  })

  it('refuses an incompatible version and another project id', async () => {
    const { self, post } = modalWindow()
    Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
    const a = new MessageChannel()
    const b = new MessageChannel()
    const replies = [replyOn(a.port1), replyOn(b.port1)]
    post({ ...hello, version: protocolVersion + 1 }, { ports: [a.port2] })
    post({ ...hello, projectId: 'other' }, { ports: [b.port2] })
    const [version, project] = (await Promise.all(replies)) as Array<{ type: string; code: number }>
    expect(version?.type).toBe('airlock:refused')
    expect(project?.code).toBe(4100)
  })

  it('welcomes only the first of two hellos checked at the same time', async () => {
    const { self, post } = modalWindow()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const accepted = Handshake.accept({
      window: self,
      projectId: 'demo',
      isAllowed: () => gate.then(() => true),
    })
    const a = new MessageChannel()
    const b = new MessageChannel()
    const replies: unknown[] = []
    a.port1.onmessage = (e) => replies.push(['a', e.data])
    b.port1.onmessage = (e) => replies.push(['b', e.data])
    post(hello, { ports: [a.port2] })
    post(hello, { ports: [b.port2] })
    release()
    await accepted
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(replies).toEqual([['a', { type: 'airlock:welcome', version: protocolVersion }]])
    a.port1.close()
  })

  it('ignores any malformed message without replying or accepting', async () => {
    const { self, post } = modalWindow()
    let accepted = false
    Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true }).then(() => {
      accepted = true
    })
    await fc.assert(
      fc.property(fc.anything(), (data) => {
        post(data)
        post({ ...hello, extra: data })
      }),
      { numRuns: 300 },
    )
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(accepted).toBe(false)
  })
})

describe('Handshake.connect', () => {
  it('posts the hello pinned to the modal origin and resolves with the port on welcome', async () => {
    const posted: Array<{ message: unknown; origin: string }> = []
    let modalPort: MessagePort | undefined
    const target = {
      postMessage(message: unknown, origin: string, transfer: Transferable[]) {
        posted.push({ message, origin })
        modalPort = transfer[0] as MessagePort
        modalPort.postMessage({ type: 'airlock:welcome', version: protocolVersion })
      },
    } as unknown as Window
    const port = await Handshake.connect({ target, modalOrigin: 'http://127.0.0.1:5174', projectId: 'demo' })
    expect(posted).toEqual([{ message: hello, origin: 'http://127.0.0.1:5174' }])
    expect(port).toBeInstanceOf(MessagePort)
    port.close()
    modalPort?.close()
  })

  it('rejects with the code the modal refused with', async () => {
    const target = {
      postMessage(_message: unknown, _origin: string, transfer: Transferable[]) {
        const port = transfer[0] as MessagePort
        port.postMessage({ type: 'airlock:refused', code: 4100, message: 'Invalid App Configuration' })
      },
    } as unknown as Window
    const error = await Handshake.connect({ target, modalOrigin: 'http://x', projectId: 'demo' }).catch(
      (e) => e,
    )
    expect(error.code).toBe(4100)
    expect(error.message).toBe('Invalid App Configuration')
  })
})
