import type { Request } from '@airlock/bridge-protocol'
import { describe, expect, it } from 'vitest'
import * as BatchCalls from './batchCalls.ts'

const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const approve = `0x095ea7b3${'00'.repeat(64)}`
const sendCalls = (batch: Record<string, unknown>): Request => ({
  namespace: 'eip155',
  method: 'wallet_sendCalls',
  params: [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, ...batch }],
})
const tx = (fields: Record<string, unknown>): Request => ({
  namespace: 'eip155',
  method: 'eth_sendTransaction',
  params: [{ from, ...fields }],
})

describe('batchCalls', () => {
  it('lets the modal send each call of the dApp’s batch once, however its hex is written', () => {
    const calls = BatchCalls.create()
    calls.asked(
      sendCalls({
        from,
        calls: [
          { to: token, data: approve },
          { to: from, value: '0x10' },
        ],
      }),
    )
    expect(calls.take(tx({ to: token.toLowerCase(), data: approve.toUpperCase().replace('0X', '0x') }))).toBe(
      true,
    )
    expect(calls.take(tx({ to: token, data: approve }))).toBe(false)
    expect(calls.take(tx({ to: from, value: '0x010' }))).toBe(true)
    expect(calls.take(tx({ to: from, value: '0x10' }))).toBe(false)
  })

  it('refuses a transaction the batch did not hold: another target, data, value, account or field', () => {
    const calls = BatchCalls.create()
    calls.asked(sendCalls({ from, calls: [{ to: token, data: approve }] }))
    expect(calls.take(tx({ to: from, data: approve }))).toBe(false)
    expect(calls.take(tx({ to: token, data: `${approve}00` }))).toBe(false)
    expect(calls.take(tx({ to: token, data: approve, value: '0x1' }))).toBe(false)
    expect(
      calls.take({
        namespace: 'eip155',
        method: 'eth_sendTransaction',
        params: [{ from: token, to: token, data: approve }],
      }),
    ).toBe(false)
    expect(calls.take(tx({ to: token, data: approve, gas: '0x1' }))).toBe(false)
    expect(calls.take({ namespace: 'eip155', method: 'personal_sign', params: [approve, from] })).toBe(false)
    expect(calls.take(tx({ to: token, data: approve }))).toBe(true)
  })

  it('takes any connected account when the batch named none, and forgets calls after 10 minutes', () => {
    let now = 0
    const calls = BatchCalls.create(() => now)
    calls.asked(sendCalls({ calls: [{ to: token }, { to: token }] }))
    expect(calls.take(tx({ to: token }))).toBe(true)
    now = 10 * 60_000 + 1
    expect(calls.take(tx({ to: token }))).toBe(false)
  })

  it('ignores requests that are not batches', () => {
    const calls = BatchCalls.create()
    calls.asked(tx({ to: token }))
    calls.asked(sendCalls({ calls: 'none' }))
    expect(calls.take(tx({ to: token }))).toBe(false)
  })
})
