import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as Sealing from './Sealing.ts'
import * as Modal from './testing.ts'

describe('Sealing', () => {
  const hex = randomBytes(32).toString('hex')
  const key = Sealing.keyOf(hex)
  const share = new Uint8Array([1, ...randomBytes(8), ...randomBytes(32), 2])
  const userId = crypto.randomUUID()

  it('seals a share as 01 || IV || ciphertext and tag, a fresh IV each time, and opens it', () => {
    const sealed = Sealing.seal(share, key, userId)
    expect(sealed.length).toBe(1 + 12 + share.length + 16)
    expect(sealed[0]).toBe(1)
    const again = Sealing.seal(share, key, userId)
    expect(again.subarray(1, 13)).not.toEqual(sealed.subarray(1, 13))
    expect(again).not.toEqual(sealed)
    expect(Sealing.open(sealed, key, userId)).toEqual(share)
    expect(Sealing.open(again, key, userId)).toEqual(share)
  })

  it("is the modal's format: either side opens what the other sealed for the auth kind", async () => {
    const webKey = await Modal.aesKey(Buffer.from(hex, 'hex'))
    expect(await Modal.open(Sealing.seal(share, key, userId), webKey, userId, 'auth')).toEqual(share)
    expect(Sealing.open(await Modal.seal(share, webKey, userId, 'auth'), key, userId)).toEqual(share)
    // The same bytes sealed as a recovery or device share are not an auth share.
    for (const kind of ['recovery', 'device'] as const) {
      const other = await Modal.seal(share, webKey, userId, kind)
      expect(() => Sealing.open(other, key, userId)).toThrow(Sealing.SealedShareError)
    }
    await expect(Modal.open(Sealing.seal(share, key, userId), webKey, userId, 'recovery')).rejects.toThrow()
  })

  it('refuses another key, another user, any altered byte and another version', () => {
    const sealed = Sealing.seal(share, key, userId)
    const refused = (bytes: Uint8Array, k = key, id = userId) =>
      expect(() => Sealing.open(bytes, k, id)).toThrow(Sealing.SealedShareError)
    refused(sealed, Sealing.keyOf(randomBytes(32).toString('hex')))
    refused(sealed, key, crypto.randomUUID())
    for (let i = 0; i < sealed.length; i++) {
      const altered = sealed.slice()
      altered[i] = (altered[i] ?? 0) ^ 0x01
      refused(altered)
    }
    refused(sealed.subarray(0, Sealing.overhead))
    refused(new Uint8Array())
  })

  it('takes a key of 32 bytes only, and keeps its bytes out of logs', () => {
    expect(() => Sealing.keyOf('ab'.repeat(31))).toThrow('32 bytes')
    expect(() => Sealing.keyOf('zz'.repeat(32))).toThrow('32 bytes')
    expect(JSON.stringify(key)).not.toContain(hex)
    expect(String(key)).not.toContain(hex)
  })
})
