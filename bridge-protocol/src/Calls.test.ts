import { describe, expect, it } from 'vitest'
import type { ChainId } from './Caip.ts'
import * as Calls from './Calls.ts'
import { codeOf } from './Errors.ts'

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const context: Calls.Context = {
  accounts: [account],
  configured: (id: ChainId) => id === 'eip155:31337',
  used: (id) => id === 'taken',
}
const batch = (overrides: Record<string, unknown> = {}) => ({
  version: '2.0.0',
  chainId: '0x7a69',
  from: account,
  atomicRequired: false,
  calls: [
    { to: token, data: '0x095ea7b3', value: '0x0' },
    { to: account, value: '0x1' },
  ],
  ...overrides,
})

/** The error `parseSendCalls` throws for the batch: its code and message. */
function refusal(params: unknown, understood?: string[]) {
  try {
    const parsed = Calls.parseSendCalls(params, context)
    if (understood) Calls.checkCapabilities(parsed, understood)
  } catch (error) {
    return { code: codeOf(error), message: (error as Error).message }
  }
  throw new Error('expected a refusal')
}

describe('Calls.parseSendCalls', () => {
  it('accepts a 2.0.0 batch and keeps what EIP-5792 names', () => {
    expect(Calls.parseSendCalls([batch({ extra: 1 })], context)).toEqual(batch())
    expect(Calls.chainOf(batch())).toBe('eip155:31337')
  })

  it('refuses a malformed batch with -32602 naming the field', () => {
    expect(refusal([batch({ calls: [{ to: token.slice(2) }] })])).toEqual({
      code: -32602,
      message: expect.stringContaining('calls[0].to'),
    })
    expect(refusal([batch({ calls: [{ to: `${token}00` }] })]).message).toContain('calls[0].to')
    expect(refusal([batch({ calls: [{ to: token, value: '12' }] })]).message).toContain('calls[0].value')
    expect(refusal([batch({ calls: [{ to: token, data: '0x123' }] })]).message).toContain('calls[0].data')
    expect(refusal([batch({ chainId: 31337 })]).message).toContain('chainId')
    expect(refusal([batch({ chainId: '0x07a69' })]).message).toContain('chainId')
    expect(refusal([batch({ atomicRequired: undefined })]).message).toContain('atomicRequired')
    expect(refusal([batch({ version: '1.0' })]).message).toContain('version')
    expect(refusal([batch({ calls: [] })])).toEqual({
      code: -32602,
      message: expect.stringContaining('calls'),
    })
    expect(refusal(undefined).code).toBe(-32602)
    expect(refusal({}).code).toBe(-32602)
  })

  it('refuses more than the cap with 5740', () => {
    const calls = Array.from({ length: Calls.maxCalls + 1 }, () => ({ to: token }))
    expect(refusal([batch({ calls })]).code).toBe(5740)
    expect(() => Calls.parseSendCalls([batch({ calls: calls.slice(1) })], context)).not.toThrow()
  })

  it('refuses a chain the dApp did not configure with 5710', () => {
    expect(refusal([batch({ chainId: '0x1' })]).code).toBe(5710)
  })

  it('refuses a from that is not connected with 4100, in any case it is written', () => {
    expect(refusal([batch({ from: token })]).code).toBe(4100)
    expect(() => Calls.parseSendCalls([batch({ from: account.toLowerCase() })], context)).not.toThrow()
  })

  it('refuses an id used before with 5720', () => {
    expect(refusal([batch({ id: 'taken' })]).code).toBe(5720)
  })

  it('refuses a required capability nobody understands with 5700, and ignores an optional one', () => {
    expect(refusal([batch({ capabilities: { flowControl: {} } })], []).code).toBe(5700)
    const perCall = batch({ calls: [{ to: token, capabilities: { paymasterService: { url: 'x' } } }] })
    expect(refusal([perCall], ['atomic']).code).toBe(5700)
    const optional = Calls.parseSendCalls(
      [batch({ capabilities: { flowControl: { optional: true } } })],
      context,
    )
    expect(() => Calls.checkCapabilities(optional, [])).not.toThrow()
    const known = Calls.parseSendCalls([perCall], context)
    expect(() => Calls.checkCapabilities(known, ['paymasterService'])).not.toThrow()
  })
})

describe('Calls.parseId and parseCapabilitiesRequest', () => {
  it('reads [id] and refuses anything else with -32602', () => {
    expect(Calls.parseId('wallet_getCallsStatus', ['0xabc'])).toBe('0xabc')
    expect(() => Calls.parseId('wallet_getCallsStatus', [])).toThrow(/expected \[id\]/)
    expect(() => Calls.parseId('wallet_getCallsStatus', [1])).toThrow(/expected \[id\]/)
  })

  it('reads [address, chainIds?] as CAIP-2 chains', () => {
    expect(Calls.parseCapabilitiesRequest([account])).toEqual({ address: account })
    expect(Calls.parseCapabilitiesRequest([account, ['0x7a69', '0x1']])).toEqual({
      address: account,
      chainIds: ['eip155:31337', 'eip155:1'],
    })
    expect(() => Calls.parseCapabilitiesRequest(['alice.eth'])).toThrow(/wallet_getCapabilities/)
    expect(() => Calls.parseCapabilitiesRequest([account, [31337]])).toThrow(/wallet_getCapabilities/)
  })

  it('keeps only well-formed capabilities of a wallet', () => {
    const atomic = { atomic: { status: 'supported' } }
    expect(Calls.parseCapabilities({ '0x7a69': atomic, nonsense: atomic })).toEqual({ '0x7a69': atomic })
    expect(Calls.parseCapabilities('yes')).toEqual({})
    expect(Calls.hexChainIdOf('eip155:31337')).toBe('0x7a69')
  })
})
