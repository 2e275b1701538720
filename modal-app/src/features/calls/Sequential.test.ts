import type * as Calls from '@airlock/bridge-protocol/Calls'
import { describe, expect, it } from 'vitest'
import * as Sequential from './Sequential.ts'

const approve = { to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: '0x095ea7b3' }
const transfer = { to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: '0xa9059cbb' }
const hash = (n: number) => `0x${String(n).padStart(64, '0')}`
const receipt = (n: number, status: '0x1' | '0x0' = '0x1'): Calls.Receipt => ({
  logs: [],
  status,
  blockHash: hash(100 + n),
  blockNumber: `0x${n.toString(16)}`,
  gasUsed: '0x5208',
  transactionHash: hash(n),
})
const start = () =>
  Sequential.create({ id: 'b1', chainId: '0x7a69', from: '0xf39F', calls: [approve, transfer] })
const declined = { code: 4001, message: 'User rejected the request.' }

describe('Sequential: transitions', () => {
  it('is pending (100, never atomic) until every call is mined, then confirmed (200) with each receipt', () => {
    let batch = start()
    expect(Sequential.statusOf(batch)).toEqual({
      version: '2.0.0',
      id: 'b1',
      chainId: '0x7a69',
      status: 100,
      atomic: false,
    })
    batch = Sequential.reduce(batch, { type: 'asking', index: 0 })
    batch = Sequential.reduce(batch, { type: 'sent', index: 0, hash: hash(1) })
    batch = Sequential.reduce(batch, { type: 'mined', index: 0, receipt: receipt(1) })
    expect(Sequential.statusOf(batch)).toMatchObject({ status: 100, receipts: [receipt(1)] })
    batch = Sequential.reduce(batch, { type: 'asking', index: 1 })
    batch = Sequential.reduce(batch, { type: 'sent', index: 1, hash: hash(2) })
    batch = Sequential.reduce(batch, { type: 'mined', index: 1, receipt: receipt(2) })
    expect(Sequential.isSettled(batch)).toBe(true)
    expect(Sequential.statusOf(batch)).toMatchObject({
      status: 200,
      atomic: false,
      receipts: [receipt(1), receipt(2)],
    })
  })

  it('reports 600 with the first receipt when the person declines a later call, and skips the rest', () => {
    let batch = Sequential.create({ ...start(), calls: [approve, transfer, transfer] })
    batch = Sequential.reduce(batch, { type: 'asking', index: 0 })
    batch = Sequential.reduce(batch, { type: 'sent', index: 0, hash: hash(1) })
    batch = Sequential.reduce(batch, { type: 'mined', index: 0, receipt: receipt(1) })
    batch = Sequential.reduce(batch, { type: 'asking', index: 1 })
    batch = Sequential.reduce(batch, { type: 'refused', index: 1, error: declined })
    expect(batch.states.map((call) => call.state)).toEqual(['confirmed', 'refused', 'skipped'])
    expect(Sequential.statusOf(batch)).toMatchObject({ status: 600, atomic: false, receipts: [receipt(1)] })
  })

  it('reports 500 when a call reverts, with its failed receipt, and sends nothing after it', () => {
    let batch = start()
    batch = Sequential.reduce(batch, { type: 'asking', index: 0 })
    batch = Sequential.reduce(batch, { type: 'sent', index: 0, hash: hash(1) })
    batch = Sequential.reduce(batch, { type: 'mined', index: 0, receipt: receipt(1, '0x0') })
    expect(batch.states.map((call) => call.state)).toEqual(['reverted', 'skipped'])
    expect(Sequential.statusOf(batch)).toMatchObject({ status: 500, receipts: [receipt(1, '0x0')] })
  })

  it('reports 400 when the first call is refused: nothing reached the chain', () => {
    let batch = Sequential.reduce(start(), { type: 'asking', index: 0 })
    batch = Sequential.reduce(batch, { type: 'refused', index: 0, error: declined })
    expect(Sequential.statusOf(batch)).toEqual({
      version: '2.0.0',
      id: 'b1',
      chainId: '0x7a69',
      status: 400,
      atomic: false,
    })
  })

  it('ignores events out of order', () => {
    const batch = start()
    expect(Sequential.reduce(batch, { type: 'sent', index: 0, hash: hash(1) })).toBe(batch)
    expect(Sequential.reduce(batch, { type: 'mined', index: 1, receipt: receipt(1) })).toBe(batch)
    expect(Sequential.reduce(batch, { type: 'asking', index: 5 })).toBe(batch)
  })
})

describe('Sequential.run', () => {
  /** A wallet that answers each call in turn, and a chain that mines on the second look. */
  function driver(answers: (() => Promise<string>)[]) {
    const sent: Calls.Call[] = []
    const looks = new Map<string, number>()
    const changes: string[][] = []
    return {
      sent,
      changes,
      driver: {
        send: (call: Calls.Call) => {
          sent.push(call)
          const answer = answers[sent.length - 1]
          return answer ? answer() : Promise.reject(new Error('unexpected call'))
        },
        receipt: async (tx: string) => {
          const seen = (looks.get(tx) ?? 0) + 1
          looks.set(tx, seen)
          return seen < 2 ? undefined : receipt(Number(BigInt(tx)))
        },
        sleep: async () => {},
        changed: (batch: Sequential.Batch) => changes.push(batch.states.map((call) => call.state)),
      },
    }
  }

  it('answers once the first call is sent, asks for the next only after the first is mined', async () => {
    const world = driver([async () => hash(1), async () => hash(2)])
    const { first, done } = Sequential.run(start(), world.driver)
    expect((await first).states[0]).toEqual({ state: 'sent', hash: hash(1) })
    const end = await done
    expect(world.sent).toEqual([approve, transfer])
    expect(world.changes).toContainEqual(['confirmed', 'waiting'])
    expect(world.changes.findIndex((states) => states[1] === 'asking')).toBeGreaterThan(
      world.changes.findIndex((states) => states[0] === 'confirmed'),
    )
    expect(Sequential.statusOf(end)).toMatchObject({ status: 200 })
  })

  it('rejects first with the wallet’s refusal when the first call is declined', async () => {
    const refusal = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const world = driver([() => Promise.reject(refusal)])
    const { first, done } = Sequential.run(start(), world.driver)
    await expect(first).rejects.toBe(refusal)
    expect(Sequential.statusOf(await done)).toMatchObject({ status: 400 })
    expect(world.sent).toEqual([approve])
  })

  it('ends at 600 when the second call is declined after the first landed', async () => {
    const refusal = Object.assign(new Error('User rejected the request.'), { code: 4001 })
    const world = driver([async () => hash(1), () => Promise.reject(refusal)])
    const { first, done } = Sequential.run(start(), world.driver)
    await first
    const end = await done
    expect(end.states[1]).toEqual({ state: 'refused', error: declined })
    expect(Sequential.statusOf(end)).toMatchObject({ status: 600, receipts: [receipt(1)] })
  })
})
