import { describe, expect, it } from 'vitest'
import * as Cursor from './Cursor.ts'

const position = { minedAt: 1_767_225_600_000, chainId: 'eip155:31337', block: 123_456, index: 7 }
const scope = { account: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }

describe('Cursor', () => {
  it('reads back the position it was made from, as an opaque URL-safe string', () => {
    const cursor = Cursor.encode(position, scope)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(cursor).not.toContain('eip155')
    expect(Cursor.decode(cursor, scope)).toEqual(position)
  })

  it('refuses a cursor with any one character changed', () => {
    const cursor = Cursor.encode(position, scope)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    for (let i = 0; i < cursor.length; i++) {
      const other = alphabet[(alphabet.indexOf(cursor[i] ?? 'A') + 1) % alphabet.length]
      const changed = cursor.slice(0, i) + other + cursor.slice(i + 1)
      // The last character may carry padding bits only, which base64url decoding ignores.
      if (Buffer.from(changed, 'base64url').equals(Buffer.from(cursor, 'base64url'))) continue
      expect(Cursor.decode(changed, scope), `position ${i}`).toBeUndefined()
    }
  })

  it('refuses a cursor of another listing, a truncated one and garbage', () => {
    const cursor = Cursor.encode(position, scope)
    expect(Cursor.decode(cursor, { account: '0x0000000000000000000000000000000000000001' })).toBeUndefined()
    expect(Cursor.decode(cursor, { ...scope, chainId: 'eip155:31337' })).toBeUndefined()
    expect(Cursor.decode(cursor.slice(0, -4), scope)).toBeUndefined()
    for (const garbage of ['', 'A', 'AAAAAAAAAAAA', '!!', 'x'.repeat(201)])
      expect(Cursor.decode(garbage, scope)).toBeUndefined()
  })
})
