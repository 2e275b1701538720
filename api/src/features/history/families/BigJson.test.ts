import { describe, expect, it } from 'vitest'
import * as BigJson from './BigJson.ts'

describe('BigJson.parse', () => {
  it('keeps integers past 2^53 exact, as strings, and leaves the rest as JSON.parse reads it', () => {
    const text = '{"big":[499999999998528400,-12345678901234567],"small":5000,"float":1.5e300,"neg":-1}'
    expect(BigJson.parse(text)).toEqual({
      big: ['499999999998528400', '-12345678901234567'],
      small: 5000,
      float: 1.5e300,
      neg: -1,
    })
  })

  it('leaves digits inside strings alone, escaped quotes included', () => {
    const text = '{"log":"Program log: \\"1234567890123456789\\", 1234567890123456789","n":1}'
    expect(BigJson.parse(text)).toEqual({
      log: 'Program log: "1234567890123456789", 1234567890123456789',
      n: 1,
    })
  })
})
