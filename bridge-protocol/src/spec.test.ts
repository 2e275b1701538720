/**
 * The texts and values docs/behaviour.md fixes for the bridge, written out here as literals: a change to any of them
 * in the code turns this red, so it can only happen as a deliberate change to this file too. Each is read
 * through what the code does with it (an error as thrown and as rebuilt across the wire, a refusal as the
 * host receives it), not through the constant that holds it.
 */
import { describe, expect, it } from 'vitest'
import * as Caip from './Caip.ts'
import * as Errors from './Errors.ts'
import * as Handshake from './Handshake.ts'
import * as Methods from './Methods.ts'

describe('docs/behaviour.md §8: wallet RPC errors carry the standard codes and texts', () => {
  const standard: [new () => Errors.BaseError, number, string][] = [
    [Errors.UserRejectedRequestError, 4001, 'User rejected the request.'],
    [
      Errors.UnauthorizedError,
      4100,
      'The requested method and/or account has not been authorized by the user.',
    ],
    [Errors.UnsupportedMethodError, 4200, 'The Provider does not support the requested method.'],
    [Errors.DisconnectedError, 4900, 'The Provider is disconnected from all chains.'],
    [Errors.ChainDisconnectedError, 4901, 'The Provider is not connected to the requested chain.'],
    [Errors.UnrecognizedChainError, 4902, 'Unrecognized chain ID.'],
    [Errors.UnsupportedChainError, 5710, 'Unsupported chain.'],
    [Errors.InvalidParamsError, -32602, 'Invalid parameters were provided to the RPC method.'],
    [Errors.InternalError, -32603, 'An internal error was received.'],
  ]

  const named = standard.map(([Class, code, message]) => [new Class().name, Class, code, message] as const)
  it.each(named)('%s is %i, %j, on both sides of the bridge', (_, Class, code, message) => {
    const thrown = new Class()
    expect({ code: thrown.code, message: thrown.message }).toEqual({ code, message })
    // What a dApp catches after the error crossed the port.
    const rebuilt = Errors.fromWire(structuredClone(Errors.toWire(thrown)))
    expect(rebuilt).toBeInstanceOf(Class)
    expect({ code: rebuilt.code, message: rebuilt.message }).toEqual({ code, message })
  })

  it('rebuilds a wallet’s bare 4001 with the standard text, as dApps match it', () => {
    const error = Errors.fromWire({ code: 4001, message: 'User rejected the request.' })
    expect(error).toBeInstanceOf(Errors.UserRejectedRequestError)
    expect(error.message).toBe('User rejected the request.')
  })

  it('names the two time-outs with the reason strings hosts match: iframe_load_failed, iframe_request_timeout', () => {
    const load = Errors.fromWire(
      structuredClone(Errors.toWire(new Errors.TimeoutError('iframe_load_failed'))),
    )
    const request = Errors.fromWire(
      structuredClone(Errors.toWire(new Errors.TimeoutError('iframe_request_timeout'))),
    )
    expect(load).toMatchObject({
      code: -32603,
      reason: 'iframe_load_failed',
      message: 'The Airlock modal failed to load.',
      data: { reason: 'iframe_load_failed' },
    })
    expect(request).toMatchObject({
      code: -32603,
      reason: 'iframe_request_timeout',
      message: 'The Airlock modal did not answer in time.',
      data: { reason: 'iframe_request_timeout' },
    })
  })
})

describe('docs/behaviour.md §6: a disallowed call', () => {
  it("shows 'Action not allowed' and logs 'Requested RPC call is not allowed'", () => {
    expect(Methods.classify('debug_traceTransaction')).toBe('disallowed')
    expect([Methods.notAllowed, Methods.notAllowedLog]).toEqual([
      'Action not allowed',
      'Requested RPC call is not allowed',
    ])
  })
})

describe('docs/behaviour.md §5: CAIP ids', () => {
  it("refuses a CAIP-2 id without exactly two parts with 'Invalid CAIP-2 network id' (-32602)", () => {
    for (const id of ['eip155', 'eip155:1:2'])
      expect(() => Caip.parseChainId(id)).toThrow(
        expect.objectContaining({ code: -32602, message: 'Invalid CAIP-2 network id' }),
      )
  })

  it("refuses a CAIP-10 id without exactly three parts with 'Invalid CAIP-10 address' (-32602)", () => {
    for (const id of ['eip155:1', 'eip155:1:0xab:cd', 'cosmos:1:0xab'])
      expect(() => Caip.parseAccountId(id)).toThrow(
        expect.objectContaining({ code: -32602, message: 'Invalid CAIP-10 address' }),
      )
  })
})

describe('docs/behaviour.md §5 and §8: a page the project does not allow', () => {
  it("is refused with 4100 'Invalid App Configuration', as the host hears it", async () => {
    const target = new EventTarget()
    const parent = {} as Window
    const self = {
      parent,
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
    } as unknown as Window
    void Handshake.accept({ window: self, projectId: 'demo', isAllowed: () => false })
    // The host's side as Handshake.connect runs it, posting into the stand-in modal window.
    const modal = {
      postMessage: (data: unknown, _origin: string, ports: MessagePort[]) =>
        target.dispatchEvent(
          Object.assign(new Event('message'), {
            data,
            ports,
            source: parent,
            origin: 'https://evil.example',
          }),
        ),
    } as unknown as Window
    const refused = await Handshake.connect({
      target: modal,
      modalOrigin: 'http://x',
      projectId: 'demo',
    }).then(
      () => undefined,
      (error: Errors.BaseError) => error,
    )
    expect(refused).toMatchObject({ code: 4100, message: 'Invalid App Configuration' })
  })
})
