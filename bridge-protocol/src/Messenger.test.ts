import * as Comlink from 'comlink'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as Errors from './Errors.ts'
import * as Messenger from './Messenger.ts'
import * as Methods from './Methods.ts'
import * as Schema from './Schema.ts'
import * as Views from './Views.ts'

const state: Schema.State = { open: false, view: 'Connect', status: 'disconnected', namespaces: {} }

function modalImplementation(overrides: Partial<Schema.ModalApi> = {}): Schema.ModalApi {
  return {
    open: () => undefined,
    close: () => undefined,
    request: (req) => ({ echoed: req.method }),
    getState: () => state,
    disconnect: () => undefined,
    switchNetwork: () => undefined,
    walletsChanged: () => undefined,
    walletEvent: () => undefined,
    signOut: () => undefined,
    ping: () => 'pong',
    pay: () => `0x${'a'.repeat(64)}`,
    ...overrides,
  }
}

function hostImplementation(overrides: Partial<Schema.HostApi> = {}): Schema.HostApi {
  return {
    listWallets: () => [],
    walletRequest: () => '0x1',
    setState: () => undefined,
    resize: () => undefined,
    ping: () => 'pong',
    storageRead: () => ({}),
    storageWrite: () => undefined,
    leaveFor: () => undefined,
    socialResult: () => undefined,
    ...overrides,
  }
}

/** Resolves with what the promise rejected with; fails the test if it resolved. */
function failure(promise: Promise<unknown>): Promise<Errors.BaseError & { reason?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error) => error,
  )
}

const open: Array<{ close(): void }> = []
afterEach(() => {
  for (const m of open.splice(0)) m.close()
})

function pair(modal = modalImplementation(), host = hostImplementation(), timeoutMs?: number) {
  const { port1, port2 } = new MessageChannel()
  const hostSide = Messenger.create({
    port: port1,
    local: Schema.hostApi,
    implementation: host,
    peer: Schema.modalApi,
    timeoutOf: (method, input) =>
      timeoutMs === undefined || (method === 'request' && Methods.needsUser(input as Schema.Request))
        ? undefined
        : timeoutMs,
  })
  const modalSide = Messenger.create({
    port: port2,
    local: Schema.modalApi,
    implementation: modal,
    peer: Schema.hostApi,
  })
  open.push(hostSide, modalSide)
  return { host: hostSide, modal: modalSide, port1, port2 }
}

describe('Messenger', () => {
  it('calls the other side in both directions over one port', async () => {
    const wallets: Schema.PageWallet[] = [
      { id: 'eip6963:1', namespace: 'eip155', name: 'Test', icon: 'data:image/svg+xml,<svg/>', chains: [] },
    ]
    const { host, modal } = pair(modalImplementation(), hostImplementation({ listWallets: () => wallets }))
    await expect(host.remote.ping()).resolves.toBe('pong')
    await expect(modal.remote.listWallets()).resolves.toEqual(wallets)
    await expect(host.remote.request({ namespace: 'eip155', method: 'eth_chainId' })).resolves.toEqual({
      echoed: 'eth_chainId',
    })
  })

  it('carries bytes of Wallet Standard requests and checks their results', async () => {
    const signature = new Uint8Array(64).fill(7)
    const { host } = pair(
      modalImplementation({
        request: (req) => ({
          signedMessage: ('params' in req
            ? (req.params as { message: Uint8Array })
            : { message: new Uint8Array() }
          ).message,
          signature,
        }),
      }),
    )
    const result = await host.remote.request({
      namespace: 'solana',
      method: 'solana:signMessage',
      params: { address: '11111111111111111111111111111111', message: new Uint8Array([1, 2, 3]) },
    })
    expect(result).toEqual({ signedMessage: new Uint8Array([1, 2, 3]), signature })
  })

  it('rebuilds a thrown error into its class with its code', async () => {
    const { host } = pair(
      modalImplementation({
        request: () => {
          throw new Errors.UserRejectedRequestError()
        },
      }),
    )
    const error = await failure(
      host.remote.request({ namespace: 'eip155', method: 'personal_sign', params: [] }),
    )
    expect(error).toBeInstanceOf(Errors.UserRejectedRequestError)
    expect(error.code).toBe(4001)
    expect(error.message).toBe('User rejected the request.')
  })

  it("carries the modal's unknown-view error to the host with -32602 and the public views", async () => {
    const opened: string[] = []
    const { host } = pair(
      modalImplementation({
        open: (input) => {
          const view = input?.view
          if (view !== undefined && !Views.isPublicView(view)) throw Errors.unknownView(view)
          if (view) opened.push(view)
        },
      }),
    )
    await host.remote.open({ view: 'Networks' })
    const error = await failure(host.remote.open({ view: 'Foo' }))
    expect(error).toBeInstanceOf(Errors.InvalidParamsError)
    expect(error.code).toBe(-32602)
    expect(error.message).toBe(Errors.unknownView('Foo').message)
    expect(error.message).toMatch(/^Unknown view "Foo"\. Views a host may open: Connect, Account, /)
    expect(opened).toEqual(['Networks'])
  })

  it('refuses invalid arguments before sending them, with -32602', async () => {
    const { host } = pair()
    const error = await failure(host.remote.switchNetwork({ caipNetworkId: 'not-a-chain' }))
    expect(error).toBeInstanceOf(Errors.InvalidParamsError)
    expect(error.message).toContain('Invalid CAIP-2 network id')
  })

  it('refuses a result that breaks the contract', async () => {
    const { modal } = pair(
      modalImplementation(),
      hostImplementation({ listWallets: () => [{ id: 1 }] as never }),
    )
    const error = await failure(modal.remote.listWallets())
    expect(error).toBeInstanceOf(Errors.InternalError)
  })

  it('times out calls that need no user, with iframe_request_timeout', async () => {
    const { host } = pair(
      modalImplementation({ getState: () => new Promise(() => {}) }),
      hostImplementation(),
      50,
    )
    const error = await failure(host.remote.getState())
    expect(error).toBeInstanceOf(Errors.TimeoutError)
    expect(error.reason).toBe('iframe_request_timeout')
  })

  it('does not time out calls that wait for a person, and fails them when closed', async () => {
    const { host } = pair(
      modalImplementation({ request: () => new Promise(() => {}) }),
      hostImplementation(),
      20,
    )
    // The modal has the call (it answers a later ping, and answers in order), and the clock is far past 20 ms.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const pending = failure(host.remote.request({ namespace: 'eip155', method: 'eth_requestAccounts' }))
      vi.advanceTimersByTime(60_000)
      await expect(host.remote.ping()).resolves.toBe('pong')
      host.close(new Errors.UserRejectedRequestError())
      // A time-out would have settled it first, with -32603: the first settlement is the one that counts.
      expect((await pending).code).toBe(4001)
    } finally {
      vi.useRealTimers()
    }
    await expect(host.remote.ping()).rejects.toBeInstanceOf(Errors.UserRejectedRequestError)
  })

  it('answers an unknown method with 4200 instead of walking the exposed object', async () => {
    const { port1, modal } = pair()
    const answers: unknown[] = []
    const listener = (event: MessageEvent) => answers.push(event.data)
    port1.addEventListener('message', listener)
    for (const path of [['constructor', 'constructor'], ['__proto__'], ['toString'], ['open', 'call']]) {
      port1.postMessage({ id: `x${path.join('.')}`, type: 'APPLY', path, argumentList: [] })
    }
    port1.postMessage({ id: 'set', type: 'SET', path: ['open'], value: { type: 'RAW', value: 1 } })
    port1.postMessage({ id: 'get', type: 'GET', path: ['open'] })
    // A genuine call last: the modal answers in order, so its answer comes after any to the others.
    port1.postMessage({ id: 'after', type: 'APPLY', path: ['ping'], argumentList: [] })
    await vi.waitFor(() => expect(answers.map((a) => (a as { id: string }).id)).toContain('after'))
    port1.removeEventListener('message', listener)
    const codes = answers
      .slice(0, -1)
      .map((a) => (a as { value: { error: { code: number } } }).value.error.code)
    expect(codes).toEqual([4200, 4200, 4200, 4200])
    expect(answers.at(-1)).toEqual({ id: 'after', type: 'RAW', value: { ok: true, value: 'pong' } })
    // SET and GET were ignored: the exposed API still works.
    await expect(modal.remote.ping()).resolves.toBe('pong')
  })

  it("speaks comlink's wire format in both directions", async () => {
    const a = new MessageChannel()
    Messenger.create({
      port: a.port2,
      local: Schema.modalApi,
      implementation: modalImplementation(),
      peer: Schema.hostApi,
    })
    const wrapped = Comlink.wrap<Record<string, (input?: unknown) => Promise<unknown>>>(a.port1)
    expect(await wrapped.ping?.()).toEqual({ ok: true, value: 'pong' })
    a.port1.close()

    const b = new MessageChannel()
    Comlink.expose({ ping: () => ({ ok: true, value: 'pong' }) }, b.port2)
    const host = Messenger.create({
      port: b.port1,
      local: Schema.hostApi,
      implementation: hostImplementation(),
      peer: Schema.modalApi,
    })
    open.push(host)
    await expect(host.remote.ping()).resolves.toBe('pong')
    b.port2.close()
  })

  it('survives any hostile message on the port in either direction', async () => {
    const { host, modal, port1, port2 } = pair()
    const anything = fc.oneof(
      fc.anything(),
      fc.record({
        id: fc.oneof(fc.string(), fc.integer()),
        type: fc.constantFrom(
          'APPLY',
          'GET',
          'SET',
          'CONSTRUCT',
          'ENDPOINT',
          'RELEASE',
          'RAW',
          'HANDLER',
          'x',
        ),
        path: fc.oneof(
          fc.array(fc.constantFrom(...Object.keys(Schema.modalApi), '__proto__', 'constructor')),
          fc.anything(),
        ),
        argumentList: fc.oneof(
          fc.array(fc.record({ type: fc.constantFrom('RAW', 'HANDLER'), value: fc.anything() })),
          fc.anything(),
        ),
        value: fc.anything(),
      }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(anything, { maxLength: 20 }), async (messages) => {
        for (const message of messages) {
          port1.postMessage(message)
          port2.postMessage(message)
        }
        await expect(host.remote.ping()).resolves.toBe('pong')
        await expect(modal.remote.ping()).resolves.toBe('pong')
      }),
      { numRuns: 100 },
    )
  })

  it('answers every well-formed call with hostile arguments by a typed error or a valid result', async () => {
    const { host } = pair()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(Schema.modalApi) as Array<keyof Schema.ModalApi>)),
        fc.anything(),
        async (method, input) => {
          const call = host.remote[method] as (input: unknown) => Promise<unknown>
          const outcome = await call(input).then(
            () => 'ok',
            (error) => error,
          )
          if (outcome !== 'ok') expect(outcome).toBeInstanceOf(Errors.BaseError)
        },
      ),
      { numRuns: 200 },
    )
  })
})
