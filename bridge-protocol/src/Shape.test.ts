import { describe, expect, it } from 'vitest'
import * as S from './Shape.ts'

describe('Shape.nullable', () => {
  const shape = S.object({ rdns: S.optional(S.nullable(S.string(10))) })

  it('keeps null, a value, and leaves out undefined', () => {
    expect(S.parse(shape, { rdns: null })).toEqual({ ok: true, value: { rdns: null } })
    expect(S.parse(shape, { rdns: 'io.x' })).toEqual({ ok: true, value: { rdns: 'io.x' } })
    expect(S.parse(shape, {})).toEqual({ ok: true, value: {} })
  })

  it('still refuses other values, naming the key', () => {
    expect(S.parse(shape, { rdns: 42 })).toEqual({
      ok: false,
      message: 'rdns: expected a string of 0..10 characters',
    })
  })
})

describe('records keep an own __proto__ key as data', () => {
  it('does not let a cloned __proto__ key become the prototype', () => {
    const { parse, record, string } = S
    const input = structuredClone(JSON.parse('{"__proto__":{"to":"0xevil"},"a":"b"}'))
    const parsed = parse(record(string(), 8), input)
    expect(parsed.ok).toBe(false)
    const loose = parse(
      record((value: unknown) => value, 8),
      input,
    )
    if (!loose.ok) throw new Error(loose.message)
    expect(Object.getPrototypeOf(loose.value)).toBe(Object.prototype)
    expect((loose.value as { to?: string }).to).toBeUndefined()
    expect(Object.keys(loose.value)).toEqual(['__proto__', 'a'])
  })
})
