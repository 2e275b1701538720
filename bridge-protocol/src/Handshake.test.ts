import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import * as Errors from './Errors.ts'
import * as Handshake from './Handshake.ts'
import { protocolVersion, protocolVersions, type VersionRange } from './Schema.ts'

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

/** The hello every airlock.js up to 1.0 sends, and that every modal must keep accepting. */
const hello = { type: 'airlock:hello', version: protocolVersion, projectId: 'demo' }
const range = (min: string, max: string): VersionRange => {
  const version = (v: string) => {
    const [major, minor] = v.split('.').map(Number)
    return { major: major ?? 0, minor: minor ?? 0 }
  }
  return { min: version(min), max: version(max) }
}

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
    const accepted = Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
    const heard: unknown[] = []
    const forged = [new MessageChannel(), new MessageChannel()]
    for (const { port1 } of forged) port1.onmessage = (event) => heard.push(event.data)
    post(hello, { ports: [forged[0]?.port2 as MessagePort], source: stranger })
    post(hello, { ports: [forged[1]?.port2 as MessagePort], source: null })
    // The parent's hello comes last: the modal takes the first hello that passes, so had either of the
    // others passed, it would be the one accepted, and its welcome would have been sent first.
    const { port1, port2 } = new MessageChannel()
    const reply = replyOn(port1)
    post(hello, { ports: [port2] })
    expect((await accepted).port).toBe(port2)
    expect(await reply).toEqual({ type: 'airlock:welcome', version: protocolVersion })
    expect(heard).toEqual([])
    for (const port of [port1, ...forged.map((channel) => channel.port1)]) port.close()
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
    // The modal closes the second hello's port: its close event comes after anything sent on it.
    const closed = new Promise((resolve) => b.port1.addEventListener('close', resolve))
    post(hello, { ports: [a.port2] })
    post(hello, { ports: [b.port2] })
    release()
    await accepted
    await closed
    expect(replies).toEqual([['a', { type: 'airlock:welcome', version: protocolVersion }]])
    a.port1.close()
  })

  it('ignores any malformed message, each with a port, without replying or accepting', async () => {
    const { self, post } = modalWindow()
    const accepted = Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
    const heard: unknown[] = []
    const ports: MessagePort[] = []
    // A port makes each message a hello but for its data, so the schema is what must refuse it.
    const withPort = (data: unknown) => {
      const { port1, port2 } = new MessageChannel()
      port1.onmessage = (event) => heard.push(event.data)
      ports.push(port1)
      post(data, { ports: [port2] })
    }
    const notVersion = fc.anything().filter((v) => typeof v !== 'number' || !Number.isFinite(v))
    const notProjectId = fc.anything().filter((v) => typeof v !== 'string' || v.length < 1 || v.length > 128)
    fc.assert(
      fc.property(fc.anything(), notVersion, notProjectId, (data, version, projectId) => {
        withPort(data)
        withPort({ ...hello, version })
        withPort({ ...hello, projectId })
        withPort({ ...hello, type: data === 'airlock:hello' ? 'airlock:hellO' : data })
      }),
      { numRuns: 300 },
    )
    // The genuine hello's welcome comes after any answer to the malformed ones would have.
    const { port1, port2 } = new MessageChannel()
    const reply = replyOn(port1)
    post(hello, { ports: [port2] })
    expect(await reply).toEqual({ type: 'airlock:welcome', version: protocolVersion })
    expect((await accepted).port).toBe(port2)
    expect(heard).toEqual([])
    for (const port of [...ports, port1]) port.close()
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
    expect(posted).toEqual([
      { message: { ...hello, versions: protocolVersions }, origin: 'http://127.0.0.1:5174' },
    ])
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

/** Host and modal over a real channel: what `connect` sends is what `accept` hears. */
function handshake(host: VersionRange, modal: VersionRange) {
  const { self, post } = modalWindow()
  const refusals: string[] = []
  const accepted = Handshake.accept({
    window: self,
    projectId: 'demo',
    isAllowed: () => true,
    versions: modal,
    onRefused: (why) => refusals.push(why),
  })
  const target = {
    postMessage: (message: unknown, _origin: string, transfer: MessagePort[]) =>
      post(message, { ports: transfer }),
  } as unknown as Window
  const connected = Handshake.connect({ target, modalOrigin: 'http://x', projectId: 'demo', versions: host })
  return { accepted, connected, refusals }
}

describe('version negotiation', () => {
  it('accepts the hello of airlock.js 1.0, which names no range, as 1.0', async () => {
    const { self, post } = modalWindow()
    const accepted = Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
    const { port1, port2 } = new MessageChannel()
    const reply = replyOn(port1)
    post(hello, { ports: [port2] })
    expect((await accepted).peer).toEqual({ major: 1, minor: 0 })
    // Exactly the welcome of modals up to 1.0: nothing a 1.0 host has not seen.
    expect(await reply).toEqual({ type: 'airlock:welcome', version: 1 })
    port1.close()
  })

  it('welcomes a host that announced its range with the modal’s own', async () => {
    const { self, post } = modalWindow()
    const accepted = Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
    const { port1, port2 } = new MessageChannel()
    const reply = replyOn(port1)
    post({ ...hello, versions: range('1.0', '1.7') }, { ports: [port2] })
    expect((await accepted).peer).toEqual(protocolVersions.max)
    expect(await reply).toEqual({ type: 'airlock:welcome', version: 1, versions: protocolVersions })
    port1.close()
  })

  it('works whichever side is a minor ahead, speaking the older minor', async () => {
    for (const [host, modal, spoken] of [
      [range('1.0', '1.3'), range('1.0', '1.1'), { major: 1, minor: 1 }],
      [range('1.0', '1.1'), range('1.0', '1.4'), { major: 1, minor: 1 }],
      [range('1.0', '1.0'), protocolVersions, { major: 1, minor: 0 }],
    ] as const) {
      const { accepted, connected } = handshake(host, modal)
      const [{ port, peer }, hostPort] = await Promise.all([accepted, connected])
      expect(peer).toEqual(spoken)
      port.close()
      hostPort.close()
    }
  })

  it('lets a build that still speaks the previous major talk to its peers', async () => {
    const { accepted, connected } = handshake(range('1.0', '1.2'), range('1.0', '2.1'))
    const [{ port, peer }, hostPort] = await Promise.all([accepted, connected])
    expect(peer).toEqual({ major: 1, minor: 2 })
    port.close()
    hostPort.close()
  })

  it('refuses a major mismatch naming both ranges; connect rejects with that and the modal is told', async () => {
    const message =
      "Airlock protocol mismatch: this page's airlock.js speaks 1.0–1.1, the modal speaks 2.0–2.0. Update airlock.js."
    const { connected, refusals } = handshake(range('1.0', '1.1'), range('2.0', '2.0'))
    const error = await connected.catch((e: Errors.BaseError) => e)
    expect(error).toBeInstanceOf(Errors.BaseError)
    expect((error as Errors.BaseError).code).toBe(-32603)
    expect((error as Errors.BaseError).message).toBe(message)
    expect(refusals).toEqual(['version'])
  })

  it('tells a page whose airlock.js is newer than the modal to load the modal’s own', async () => {
    const { connected } = handshake(range('3.0', '3.2'), range('1.0', '2.5'))
    await expect(connected).rejects.toThrow(
      "Airlock protocol mismatch: this page's airlock.js speaks 3.0–3.2, the modal speaks 1.0–2.5. Load airlock.js from the modal's origin.",
    )
  })

  it('announces the oldest major in `version`, so a modal from before ranges accepts a host that speaks it', () => {
    const posted: unknown[] = []
    const target = { postMessage: (message: unknown) => posted.push(message) } as unknown as Window
    void Handshake.connect({
      target,
      modalOrigin: 'http://x',
      projectId: 'demo',
      versions: range('1.0', '2.0'),
    })
    expect(posted).toEqual([{ ...hello, version: 1, versions: range('1.0', '2.0') }])
  })

  it('reads a range it cannot parse as no range at all, so the hello still gets an answer', async () => {
    const { self, post } = modalWindow()
    const accepted = Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
    const { port1, port2 } = new MessageChannel()
    post({ ...hello, versions: { min: '1.0', max: { major: 1, minor: -1 } } }, { ports: [port2] })
    expect((await accepted).peer).toEqual({ major: 1, minor: 0 })
    port1.close()
  })

  it('rejects a welcome from a modal that shares no major with the host', async () => {
    const target = {
      postMessage(_message: unknown, _origin: string, transfer: Transferable[]) {
        const port = transfer[0] as MessagePort
        port.postMessage({ type: 'airlock:welcome', version: 2 })
      },
    } as unknown as Window
    await expect(Handshake.connect({ target, modalOrigin: 'http://x', projectId: 'demo' })).rejects.toThrow(
      `this page's airlock.js speaks ${Handshake.formatRange(protocolVersions)}, the modal speaks 2.0–2.0`,
    )
  })

  it('negotiates the older of the two newest versions, if both speak its major', () => {
    expect(Handshake.negotiate(range('1.0', '1.1'), range('1.0', '1.0'))).toEqual({ major: 1, minor: 0 })
    expect(Handshake.negotiate(range('1.0', '2.3'), range('2.0', '2.1'))).toEqual({ major: 2, minor: 1 })
    expect(Handshake.negotiate(range('1.0', '1.9'), range('2.0', '2.1'))).toBeUndefined()
    expect(Handshake.negotiate(range('2.0', '2.0'), range('1.0', '1.5'))).toBeUndefined()
  })
})

describe('refusals that name their cause', () => {
  it('a modal refuses with the cause and the fix it names, and the host hears when its alert is closed', async () => {
    const { self, post } = modalWindow()
    let dismiss: (() => void) | undefined
    Handshake.accept({
      window: self,
      projectId: 'demo',
      isAllowed: (origin) => ({
        refusal: 'origin',
        message: `Origin ${origin} is not allowed for project 'demo'.`,
        fix: `npx airlock-api project add demo ${origin}`,
      }),
      onRefused: (_refusal, _origin, close) => {
        dismiss = close
      },
    })
    // The host's side, as Handshake.connect runs it, over a real channel.
    const target = {
      postMessage: (message: unknown, _origin: string, transfer: Transferable[]) =>
        post(message, { ports: transfer as MessagePort[], origin: 'http://evil.test' }),
    } as unknown as Window
    let dismissed = false
    const error = await Handshake.connect({
      target,
      modalOrigin: 'http://127.0.0.1:5174',
      projectId: 'demo',
      onDismissed: () => {
        dismissed = true
      },
    }).catch((e: Errors.BaseError) => e)
    expect(error).toMatchObject({
      code: 4100,
      message: "Origin http://evil.test is not allowed for project 'demo'.",
      data: { fix: 'npx airlock-api project add demo http://evil.test' },
    })
    expect(dismissed).toBe(false)
    dismiss?.()
    await vi.waitFor(() => expect(dismissed).toBe(true))
  })
})
