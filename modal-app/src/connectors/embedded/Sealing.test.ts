import { describe, expect, it } from 'vitest'
import * as Sealing from './Sealing.ts'

const alice = { userId: 'user_alice', kind: 'recovery' } as const
const share = Uint8Array.from({ length: 42 }, (_, i) => i)

async function aesKey(): Promise<CryptoKey> {
  return globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
}

const prf = (byte: number) => new Uint8Array(32).fill(byte)

describe('sealShare / openShare', () => {
  it('opens what it sealed, for the same visitor and kind', async () => {
    const key = await aesKey()
    const sealed = await Sealing.sealShare(share, key, alice)
    expect(sealed).toHaveLength(1 + 12 + share.length + 16)
    expect(sealed[0]).toBe(1)
    expect(await Sealing.openShare(sealed, key, alice)).toEqual(share)
  })

  it('draws a new IV each time', async () => {
    const key = await aesKey()
    const [a, b] = await Promise.all([
      Sealing.sealShare(share, key, alice),
      Sealing.sealShare(share, key, alice),
    ])
    expect(a.subarray(1, 13)).not.toEqual(b.subarray(1, 13))
    expect(a.subarray(13)).not.toEqual(b.subarray(13))
  })

  it('refuses a share sealed for another visitor or another kind', async () => {
    const key = await aesKey()
    const sealed = await Sealing.sealShare(share, key, alice)
    for (const context of [
      { userId: 'user_bob', kind: 'recovery' },
      { userId: 'user_alice', kind: 'auth' },
      { userId: 'user_alice', kind: 'device' },
      { userId: 'user_alice ', kind: 'recovery' },
    ] as const)
      await expect(Sealing.openShare(sealed, key, context), context.userId + context.kind).rejects.toThrow(
        Sealing.SealedShareError,
      )
  })

  it('refuses another key', async () => {
    const sealed = await Sealing.sealShare(share, await aesKey(), alice)
    await expect(Sealing.openShare(sealed, await aesKey(), alice)).rejects.toThrow(
      'The share does not open with this key for this visitor and kind.',
    )
  })

  it('refuses any altered byte: IV, ciphertext or tag', async () => {
    const key = await aesKey()
    const sealed = await Sealing.sealShare(share, key, alice)
    for (const at of [1, 12, 13, 30, sealed.length - 16, sealed.length - 1]) {
      const altered = sealed.slice()
      altered[at] = (altered[at] ?? 0) ^ 0x80
      await expect(Sealing.openShare(altered, key, alice), `byte ${at}`).rejects.toThrow(
        Sealing.SealedShareError,
      )
    }
  })

  it('refuses an unknown version and bytes too short to hold a share', async () => {
    const key = await aesKey()
    const sealed = await Sealing.sealShare(share, key, alice)
    const versioned = sealed.slice()
    versioned[0] = 2
    await expect(Sealing.openShare(versioned, key, alice)).rejects.toThrow(
      'Not a sealed share of this version.',
    )
    await expect(Sealing.openShare(sealed.subarray(0, 29), key, alice)).rejects.toThrow(
      Sealing.SealedShareError,
    )
    await expect(Sealing.openShare(new Uint8Array(0), key, alice)).rejects.toThrow(Sealing.SealedShareError)
  })

  it('refuses to seal for an empty visitor id', async () => {
    await expect(Sealing.sealShare(share, await aesKey(), { userId: '', kind: 'auth' })).rejects.toThrow(
      RangeError,
    )
  })
})

describe('recoveryKey', () => {
  it('gives the same key for the same passkey output and visitor', async () => {
    const sealed = await Sealing.sealShare(share, await Sealing.recoveryKey(prf(7), 'user_alice'), alice)
    const again = await Sealing.recoveryKey(prf(7), 'user_alice')
    expect(await Sealing.openShare(sealed, again, alice)).toEqual(share)
  })

  it('gives another key for another passkey output or another visitor', async () => {
    const sealed = await Sealing.sealShare(share, await Sealing.recoveryKey(prf(7), 'user_alice'), alice)
    for (const key of [
      await Sealing.recoveryKey(prf(8), 'user_alice'),
      await Sealing.recoveryKey(prf(7), 'user_bob'),
    ])
      await expect(Sealing.openShare(sealed, key, alice)).rejects.toThrow(Sealing.SealedShareError)
  })

  it('is an AES-256-GCM key that script cannot read', async () => {
    const key = await Sealing.recoveryKey(prf(7), 'user_alice')
    expect(key.extractable).toBe(false)
    expect(key.algorithm).toEqual({ name: 'AES-GCM', length: 256 })
    expect(key.usages.sort()).toEqual(['decrypt', 'encrypt'])
    await expect(globalThis.crypto.subtle.exportKey('raw', key)).rejects.toThrow()
  })

  it('refuses a PRF output that is not 32 bytes, and an empty visitor id', async () => {
    await expect(Sealing.recoveryKey(new Uint8Array(16), 'user_alice')).rejects.toThrow(RangeError)
    await expect(Sealing.recoveryKey(prf(7), '')).rejects.toThrow(RangeError)
  })

  it('leaves the caller’s PRF output as it was', async () => {
    const output = prf(7)
    await Sealing.recoveryKey(output, 'user_alice')
    expect(output).toEqual(prf(7))
  })
})

describe('passwordKey', () => {
  it('opens with the same password and visitor, and with no other', async () => {
    const sealed = await Sealing.sealShare(
      share,
      await Sealing.passwordKey('correct horse', 'user_alice'),
      alice,
    )
    expect(
      await Sealing.openShare(sealed, await Sealing.passwordKey('correct horse', 'user_alice'), alice),
    ).toEqual(share)
    for (const key of [
      await Sealing.passwordKey('correct horsf', 'user_alice'),
      await Sealing.passwordKey('correct horse', 'user_bob'),
    ])
      await expect(Sealing.openShare(sealed, key, alice)).rejects.toThrow(Sealing.SealedShareError)
  })

  it('reads a password typed in either Unicode form as one', async () => {
    const composed = 'caf\u00e9 au lait'
    const decomposed = 'cafe\u0301 au lait'
    const sealed = await Sealing.sealShare(share, await Sealing.passwordKey(composed, 'user_alice'), alice)
    expect(
      await Sealing.openShare(sealed, await Sealing.passwordKey(decomposed, 'user_alice'), alice),
    ).toEqual(share)
  })

  it(`refuses a password under ${Sealing.passwordMin} characters, and an empty visitor id`, async () => {
    await expect(Sealing.passwordKey('x'.repeat(Sealing.passwordMin - 1), 'user_alice')).rejects.toThrow(
      RangeError,
    )
    await expect(Sealing.passwordKey('x'.repeat(Sealing.passwordMin), '')).rejects.toThrow(RangeError)
  })
})
