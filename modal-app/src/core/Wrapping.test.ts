import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import * as Wrapping from './Wrapping.ts'

describe('the modal origin’s wrapping key', () => {
  it('is made once per IndexedDB, kept there, and never leaves it: WebCrypto refuses to export it', async () => {
    const idb = new IDBFactory()
    // Two tabs asking at once agree on one key.
    const [first, second] = await Promise.all([Wrapping.key(idb), Wrapping.key(idb)])
    const later = await Wrapping.key(idb)
    if (!first || !second || !later) return expect.fail('no key')
    const wrapped = await Wrapping.wrap(first, 'slot', 'a secret')
    expect(await Wrapping.unwrap(second, 'slot', wrapped)).toBe('a secret')
    expect(await Wrapping.unwrap(later, 'slot', wrapped)).toBe('a secret')
    expect(later.extractable).toBe(false)
    expect(later.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 })
    for (const format of ['raw', 'jwk'] as const)
      await expect(crypto.subtle.exportKey(format, later)).rejects.toThrow(/not extractable/)
    // Another origin's (or profile's) IndexedDB has a key of its own, which opens nothing of this one.
    const other = (await Wrapping.key(new IDBFactory())) ?? expect.fail('no key')
    await expect(Wrapping.unwrap(other, 'slot', wrapped)).rejects.toThrow(Wrapping.UnwrapError)
  })

  it('is none where there is no IndexedDB, and refused where the browser refuses it', async () => {
    expect(await Wrapping.key(undefined)).toBeUndefined()
    const refusing = {
      open() {
        throw new DOMException(
          'A mutation operation was attempted on a database that did not allow mutations.',
          'InvalidStateError',
        )
      },
    } as unknown as IDBFactory
    await expect(Wrapping.key(refusing)).rejects.toThrow(/did not allow mutations/)
  })

  it('wraps a value for its name: fresh ciphertext each time, refused under another name or once altered', async () => {
    const key = (await Wrapping.key(new IDBFactory())) ?? expect.fail('no key')
    const [a, b] = await Promise.all([
      Wrapping.wrap(key, 'share', 'AQID'),
      Wrapping.wrap(key, 'share', 'AQID'),
    ])
    expect(a).not.toBe(b)
    expect(Wrapping.isWrapped(a)).toBe(true)
    expect(Wrapping.isWrapped('AQID')).toBe(false)
    await expect(Wrapping.unwrap(key, 'session', a)).rejects.toThrow(
      'The kept value “session” could not be unwrapped: it was altered, or wrapped by another browser profile.',
    )
    const altered = `${a.slice(0, -4)}AAA=`
    await expect(Wrapping.unwrap(key, 'share', altered)).rejects.toMatchObject({
      name: 'UnwrapError',
      at: 'share',
    })
    await expect(Wrapping.unwrap(key, 'share', 'w1:%%%')).rejects.toThrow(Wrapping.UnwrapError)
  })
})
