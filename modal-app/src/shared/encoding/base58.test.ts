import { describe, expect, it } from 'vitest'
import * as base58 from './base58.ts'

describe('base58', () => {
  it('round-trips bytes, leading zeros included', () => {
    for (const bytes of [
      [],
      [0],
      [0, 0, 1],
      [255, 254, 0, 7],
      Array.from({ length: 64 }, (_, i) => (i * 37) % 256),
    ]) {
      const data = new Uint8Array(bytes)
      expect(base58.decode(base58.encode(data))).toEqual(data)
    }
  })

  it('matches known encodings', () => {
    expect(base58.encode(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U')
    // The system program's address is 32 zero bytes.
    expect(base58.encode(new Uint8Array(32))).toBe('11111111111111111111111111111111')
  })

  it('refuses characters outside the alphabet', () => {
    expect(() => base58.decode('0OIl')).toThrow('Not base58')
  })
})
