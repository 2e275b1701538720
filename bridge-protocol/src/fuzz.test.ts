/**
 * 10⁴ hostile messages at each door of the bridge, every one with a fresh MessagePort: the modal's window
 * before the handshake (Handshake.accept) and both ends of a live port (Messenger). Nothing may arrive on
 * any forged port, nothing may be accepted or run, Object.prototype stays clean, and the genuine hello or
 * call sent afterwards still succeeds; its answer is the proof that the junk's would have come already.
 * The messages come from a seed (`FUZZ_SEED` to try another); each test names the one it used.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as Errors from './Errors.ts'
import * as Handshake from './Handshake.ts'
import * as Hostile from './internal/hostile/index.ts'
import * as Messenger from './Messenger.ts'
import * as Schema from './Schema.ts'

const seed = Number(process.env.FUZZ_SEED ?? 20_261_125)
const count = 10_000
const hello = { type: 'airlock:hello', version: Schema.protocolVersion, projectId: 'demo' }
const allowed = 'http://localhost:5173'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** What Object.prototype and its kin hold, to compare after the flood: pollution adds to them. */
const prototypes = () =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) =>
    Object.getOwnPropertyNames(p).sort(),
  )
const pristine = prototypes()
function expectNoPollution() {
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  expect(prototypes()).toEqual(pristine)
}

type Post = (data: unknown, init?: { origin?: string; source?: unknown; transfer?: Transferable[] }) => void

/**
 * A stand-in for the modal's window. Data and ports pass through a real structured clone, as a browser's
 * postMessage does: prototypes drop, own `__proto__` keys stay, transferred ports arrive in `ports`.
 */
function modalWindow() {
  const target = new EventTarget()
  const parent = { name: 'parent' } as unknown as Window
  const stranger = { name: 'stranger' } as unknown as Window
  const post: Post = (data, init = {}) => {
    const transfer = init.transfer ?? []
    const clone = structuredClone({ data, transfer }, { transfer })
    const event = Object.assign(new Event('message'), {
      data: clone.data,
      origin: init.origin ?? allowed,
      source: init.source === undefined ? parent : init.source,
      ports: clone.transfer.filter((t) => t instanceof MessagePort),
    })
    target.dispatchEvent(event)
  }
  const self = {
    parent,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  } as unknown as Window
  return { self, stranger, post }
}

function listen(options: Partial<Handshake.AcceptOptions> & Pick<Handshake.AcceptOptions, 'window'>) {
  const outcome = { accepted: [] as Handshake.Accepted[], refused: [] as string[] }
  Handshake.accept({
    projectId: 'demo',
    isAllowed: (origin) => origin === allowed,
    onRefused: (refusal, origin) => outcome.refused.push(`${refusal} ${origin}`),
    ...options,
  }).then((accepted) => {
    outcome.accepted.push(accepted)
    cleanups.push(() => accepted.port.close())
  })
  return outcome
}

/**
 * Sends a genuine hello and resolves with the first reply on its port, or 'no reply' after 5 s: a bound
 * that turns a modal that took a forged hello (and stopped listening) into a failure that says so.
 */
function genuine(post: Post, init: { origin?: string } = {}): Promise<unknown> {
  const { port1, port2 } = new MessageChannel()
  cleanups.push(() => port1.close())
  const reply = new Promise((resolve) => {
    port1.onmessage = (event) => resolve(event.data)
  })
  post(hello, { ...init, transfer: [port2] })
  return bounded(reply, 'no reply')
}

function bounded<T, U>(promise: Promise<T>, otherwise: U, ms = 5_000): Promise<T | U> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<U>((resolve) => {
    timer = setTimeout(() => resolve(otherwise), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

function expectSilent(flood: Hostile.Flood) {
  cleanups.push(flood.close)
  expect(flood.unsent).toEqual([])
  expect(flood.heard).toEqual([])
}

describe(`Handshake.accept under ${count} hostile messages (seed ${seed})`, () => {
  it('ignores every malformed hello from the parent, then welcomes a genuine one', async () => {
    const { self, post } = modalWindow()
    const outcome = listen({ window: self })
    const flood = Hostile.flood({
      seed,
      target: 'hello',
      count,
      post: (data, transfer) => post(data, { transfer }),
    })
    const welcome = await genuine(post)
    expectSilent(flood)
    expect(welcome).toEqual({ type: 'airlock:welcome', version: 1 })
    expect(outcome.refused).toEqual([])
    expect(outcome.accepted.map((a) => a.origin)).toEqual([allowed])
    expect(Object.keys(flood.kinds).sort()).toEqual(
      ['junk', 'near:projectId', 'near:type', 'near:version', 'ports', 'wrapped'].sort(),
    )
    expectNoPollution()
  })

  it('ignores every message, genuine hellos included, from a window that is not the parent', async () => {
    const { self, post, stranger } = modalWindow()
    const outcome = listen({ window: self })
    const floods = [stranger, null].map((source, i) =>
      Hostile.flood({
        seed: seed + i,
        target: 'hello',
        genuine: true,
        count: count / 2,
        post: (data, transfer) => post(data, { source, transfer }),
      }),
    )
    expect(floods.map((f) => f.kinds.genuine)).not.toContain(undefined)
    const welcome = await genuine(post)
    for (const flood of floods) expectSilent(flood)
    expect(welcome).toEqual({ type: 'airlock:welcome', version: 1 })
    expect(outcome.refused).toEqual([])
    expect(outcome.accepted).toHaveLength(1)
    expectNoPollution()
  })

  it('never accepts a genuine hello from an origin the project does not allow', async () => {
    const { self, post } = modalWindow()
    const outcome = listen({ window: self })
    const origins = ['null', 'http://evil.example', 'https://localhost:5173', 'http://localhost:51730', '']
    const spoofs = [...origins, 'http://localhost:5173.evil.example', 'http://LOCALHOST:5173', `${allowed}/`]
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => genuine(post, { origin: spoofs[i % spoofs.length] })),
    )
    expect(new Set(replies.map((reply) => (reply as { type: string }).type))).toEqual(
      new Set(['airlock:refused']),
    )
    expect(outcome.accepted).toEqual([])
    expect(await genuine(post)).toEqual({ type: 'airlock:welcome', version: 1 })
    expect(outcome.accepted.map((a) => a.origin)).toEqual([allowed])
  })
})

const modalImplementation = (): Schema.ModalApi => ({
  open: () => undefined,
  close: () => undefined,
  request: (req) => (req.namespace === 'eip155' && req.method === 'eth_chainId' ? '0x7a69' : null),
  getState: () => ({ open: false, view: 'Connect', status: 'disconnected', namespaces: {} }),
  disconnect: () => undefined,
  switchNetwork: () => undefined,
  walletsChanged: () => undefined,
  walletEvent: () => undefined,
  signOut: () => undefined,
  ping: () => 'pong',
  pay: () => `0x${'a'.repeat(64)}`,
})
const hostImplementation = (): Schema.HostApi => ({
  listWallets: () => [],
  walletRequest: () => '0x1',
  setState: () => undefined,
  resize: () => undefined,
  ping: () => 'pong',
  storageRead: () => ({}),
  leaveFor: () => undefined,
  socialResult: () => undefined,
  storageWrite: () => undefined,
})

/** Counts every call that reaches the implementation: none of the junk may. */
function counted<T extends object>(implementation: T): { implementation: T; calls: string[] } {
  const calls: string[] = []
  for (const [name, run] of Object.entries(implementation) as Array<[string, (input: unknown) => unknown]>)
    Object.assign(implementation, {
      [name]: (input: unknown) => {
        calls.push(name)
        return run(input)
      },
    })
  return { implementation, calls }
}

/** A real handshake over the stand-in window: the host's port and the modal's, both live. */
async function handshake() {
  const { self, post } = modalWindow()
  const accepted = Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => true })
  const target = {
    postMessage: (message: unknown, _: string, transfer: MessagePort[]) => post(message, { transfer }),
  }
  const [host, modal] = await Promise.all([
    Handshake.connect({ target: target as unknown as Window, modalOrigin: 'http://x', projectId: 'demo' }),
    accepted.then((a) => a.port),
  ])
  cleanups.push(
    () => host.close(),
    () => modal.close(),
  )
  return { host, modal }
}

describe(`Messenger under ${count} hostile messages on a live port (seed ${seed})`, () => {
  const sides = [
    {
      name: 'the modal',
      local: Schema.modalApi,
      peer: Schema.hostApi,
      make: modalImplementation,
      side: 'modal',
    },
    {
      name: 'the host SDK',
      local: Schema.hostApi,
      peer: Schema.modalApi,
      make: hostImplementation,
      side: 'host',
    },
  ] as const

  for (const { name, local, peer, make, side } of sides) {
    it(`${name} runs none, answers each call with the refusal it promises, and still answers a genuine one`, async () => {
      const ports = await handshake()
      const [own, hostile] = side === 'modal' ? [ports.modal, ports.host] : [ports.host, ports.modal]
      const { implementation, calls } = counted(make())
      const messenger = Messenger.create({
        port: own,
        local,
        implementation,
        peer,
      } as Messenger.CreateOptions<Schema.Contract, Schema.Contract>)
      cleanups.push(() => messenger.close())
      const answers = new Map<string, unknown[]>()
      hostile.onmessage = (event) => {
        const id = (event.data as { id: string }).id
        answers.set(id, [...(answers.get(id) ?? []), event.data])
      }
      const methods = Object.keys(local)
      const flood = Hostile.flood({
        seed,
        target: 'bridge',
        methods,
        count,
        post: (d, t) => hostile.postMessage(d, t),
      })
      const call = (id: string, method: string, value?: unknown) =>
        hostile.postMessage({
          id,
          type: 'APPLY',
          path: [method],
          argumentList: value ? [{ type: 'RAW', value }] : [],
        })
      call('after', 'ping')
      await vi.waitFor(() => expect(answers.has('after')).toBe(true), { timeout: 20_000 })
      expectSilent(flood)
      expect(calls).toEqual(['ping'])
      expect(answers.get('after')).toEqual([{ id: 'after', type: 'RAW', value: { ok: true, value: 'pong' } }])
      // Exactly the promised refusals, one each, nothing for the rest.
      answers.delete('after')
      const refusals = [...answers].map(([id, replies]) => [
        id,
        replies.map((r) => (r as { value: { ok: boolean; error?: { code: number } } }).value.error?.code),
      ])
      expect(refusals).toEqual([...flood.answers].map(([id, code]) => [id, [code]]))
      expect(new Set(flood.answers.values())).toEqual(new Set([4200, -32602]))
      if (side === 'modal') {
        call('chain', 'request', { namespace: 'eip155', method: 'eth_chainId' })
        await vi.waitFor(() =>
          expect(answers.get('chain')).toEqual([
            { id: 'chain', type: 'RAW', value: { ok: true, value: '0x7a69' } },
          ]),
        )
      }
      expectNoPollution()
    })
  }

  it("rejects the host's calls with a typed error whatever the modal answers to them, and never hangs", async () => {
    const { host, modal } = await handshake()
    const messenger = Messenger.create({
      port: host,
      local: Schema.hostApi,
      implementation: hostImplementation(),
      peer: Schema.modalApi,
    })
    cleanups.push(() => messenger.close())
    // The forged messages become the answers, with the id of the call they answer.
    const forged: Array<{ data: unknown; transfer: Transferable[] }> = []
    const flood = Hostile.flood({
      seed,
      target: 'bridge',
      count: 2000,
      post: (data, transfer) => forged.push({ data, transfer }),
    })
    cleanups.push(flood.close)
    modal.onmessage = (event) => {
      const { id } = event.data as { id: string }
      const next = forged.shift()
      if (!next) return
      const type = ['RAW', 'HANDLER'][forged.length % 2]
      const name = ['throw', 'x', 'proxy'][forged.length % 3]
      modal.postMessage({ id, type, name, value: next.data }, next.transfer)
    }
    const outcomes = new Map<string, number>()
    for (let i = 0; i < 2000; i++) {
      const settled = messenger.remote.getState().then(
        () => 'result',
        (error: unknown) =>
          error instanceof Errors.BaseError ? `${error.code}` : `untyped ${String(error)}`,
      )
      const outcome = await bounded(settled, 'hung')
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    }
    expect([...outcomes.keys()]).toEqual(['-32603'])
    expectSilent(flood)
    expectNoPollution()
  })
})
