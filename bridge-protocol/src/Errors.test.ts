import { describe, expect, it } from 'vitest'
import * as Errors from './Errors.ts'

describe('Errors', () => {
  it.each([
    [4001, Errors.UserRejectedRequestError],
    [4100, Errors.UnauthorizedError],
    [4200, Errors.UnsupportedMethodError],
    [4900, Errors.DisconnectedError],
    [4901, Errors.ChainDisconnectedError],
    [4902, Errors.UnrecognizedChainError],
    [5710, Errors.UnsupportedChainError],
    [-32602, Errors.InvalidParamsError],
    [-32603, Errors.InternalError],
  ])('rebuilds code %i into its class with its standard text', (code, Class) => {
    const wire = Errors.toWire(new Class())
    expect(wire).toEqual({ code, message: Errors.messages[code as keyof typeof Errors.messages] })
    const rebuilt = Errors.fromWire(structuredClone(wire))
    expect(rebuilt).toBeInstanceOf(Class)
    expect(rebuilt.code).toBe(code)
  })

  it('keeps data that can be cloned and drops data that cannot', () => {
    expect(Errors.toWire(new Errors.InternalError('x', { data: { a: 1 } }))).toEqual({
      code: -32603,
      message: 'x',
      data: { a: 1 },
    })
    expect(Errors.toWire(new Errors.InternalError('x', { data: { f: () => 1 } }))).toEqual({
      code: -32603,
      message: 'x',
    })
  })

  it('turns foreign throwables into internal errors without leaking stacks', () => {
    expect(Errors.toWire(new TypeError('boom'))).toEqual({ code: -32603, message: 'boom' })
    expect(Errors.toWire('a string')).toEqual({ code: -32603, message: 'An internal error was received.' })
    expect(Errors.toWire({ code: 4001, message: 'User rejected the request.', stack: 'x' })).toEqual({
      code: 4001,
      message: 'User rejected the request.',
    })
  })

  it('rebuilds time-outs with their reason', () => {
    const error = Errors.fromWire(Errors.toWire(new Errors.TimeoutError('iframe_request_timeout')))
    expect(error).toBeInstanceOf(Errors.TimeoutError)
    expect((error as Errors.TimeoutError).reason).toBe('iframe_request_timeout')
  })

  it('keeps unknown codes as a base error', () => {
    const error = Errors.fromWire({ code: -32000, message: 'execution reverted' })
    expect(error).toBeInstanceOf(Errors.BaseError)
    expect(error.code).toBe(-32000)
  })

  it('reads the code of anything thrown, if it has a numeric one', () => {
    expect(Errors.codeOf(new Errors.UserRejectedRequestError())).toBe(4001)
    expect(Errors.codeOf({ code: -32000, message: 'execution reverted' })).toBe(-32000)
    expect(Errors.codeOf({ code: '4001' })).toBeUndefined()
    expect(Errors.codeOf(new Error('plain'))).toBeUndefined()
    expect(Errors.codeOf(null)).toBeUndefined()
    expect(Errors.codeOf(undefined)).toBeUndefined()
    expect(Errors.codeOf('a string')).toBeUndefined()
  })

  it('reads the message of anything thrown, or falls back when it has none to show', () => {
    expect(Errors.messageOf(new Error('boom'), 'fallback')).toBe('boom')
    expect(Errors.messageOf({ message: 'from a wallet' }, 'fallback')).toBe('from a wallet')
    expect(Errors.messageOf(new Error(''), 'fallback')).toBe('fallback')
    expect(Errors.messageOf({ message: 42 }, 'fallback')).toBe('fallback')
    expect(Errors.messageOf(null, 'fallback')).toBe('fallback')
    expect(Errors.messageOf('a string', 'fallback')).toBe('fallback')
  })
})
