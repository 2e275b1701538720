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
