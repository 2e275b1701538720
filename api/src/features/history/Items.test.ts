import { describe, expect, it } from 'vitest'
import * as Items from './Items.ts'

const me = '0xme'
const transfer = (from: string, to: string) => ({ from, to, direction: Items.direction(me, from, to) })

describe('Items', () => {
  it('tells each transfer’s direction from the account', () => {
    expect(Items.direction(me, me, '0xyou')).toBe('out')
    expect(Items.direction(me, '0xyou', me)).toBe('in')
    expect(Items.direction(me, me, me)).toBe('self')
  })

  it('names the operation from the transfers that concern the account', () => {
    expect(Items.operationType('execute', [transfer('0xyou', me)])).toBe('receive')
    expect(Items.operationType('execute', [transfer(me, '0xyou')])).toBe('send')
    expect(Items.operationType('execute', [transfer('', me), transfer('', me)])).toBe('mint')
    expect(Items.operationType('execute', [transfer('', me), transfer('0xyou', me)])).toBe('receive')
    expect(Items.operationType('execute', [transfer(me, '')])).toBe('burn')
    expect(Items.operationType('execute', [transfer(me, '0xpool'), transfer('0xpool', me)])).toBe('trade')
    expect(Items.operationType('send', [transfer(me, me)])).toBe('send')
  })

  it('falls back to what the transaction was when no transfer concerns the account', () => {
    for (const kind of ['send', 'execute', 'approve', 'deploy'] as const)
      expect(Items.operationType(kind, [])).toBe(kind)
  })

  it('scales fungible amounts by their decimals and leaves unknown ones as they are', () => {
    expect(Items.quantity(1_500_000_000_000_000_000n, 18)).toBe('1.5')
    expect(Items.quantity(42n, null)).toBe('42')
    expect(Items.quantity(42n, 0)).toBe('42')
  })
})
