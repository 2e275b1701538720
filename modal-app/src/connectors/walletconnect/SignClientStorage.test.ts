import { describe, expect, it } from 'vitest'
import * as FrameStorage from '../../core/FrameStorage.ts'
import { hasSeed, keyPrefix, memory, seed, snapshot, webStorageInMemory } from './SignClientStorage.ts'

const session = { topic: 'ab'.repeat(32), expiry: 1_900_000_000, id: 1_744_000_000_000_123_456n }

describe('sign-client storage', () => {
  it('keeps entries in memory while the browser has granted nothing', async () => {
    const storage = memory()
    await storage.setItem('wc@2:client//session', [session])
    await storage.setItem('wc@2:core//keychain', { key: 'secret' })
    await storage.removeItem('wc@2:core//keychain')
    expect(await storage.getKeys()).toEqual(['wc@2:client//session'])
    expect(await storage.getItem('wc@2:client//session')).toEqual([session])
    expect(FrameStorage.granted()).toBeUndefined()
  })

  it('hands a window what the client holds, and a client started on what the window gave back finds it all', async () => {
    const before = memory()
    await before.setItem('wc@2:client//session', [session])
    await before.setItem('wc@2:core//keychain', { key: 'secret' })
    const kept = snapshot()
    // Texts, as the window keeps them; the JSON-RPC id stays a bigint across the trip.
    expect(Object.values(kept).every((value) => typeof value === 'string')).toBe(true)
    expect(hasSeed()).toBe(false)
    seed({ ...kept, 'wc@2:core//broken': '{not json' })
    expect(hasSeed()).toBe(true)
    const after = memory()
    expect(await after.getItem('wc@2:client//session')).toEqual([session])
    expect(await after.getItem('wc@2:core//keychain')).toEqual({ key: 'secret' })
    expect(await after.getKeys()).toEqual(['wc@2:client//session', 'wc@2:core//keychain'])
    seed({})
  })

  it('after a grant, keeps the keys and session in first-party storage, and the next page load restores them', async () => {
    const before = memory()
    // Written before the grant arrives: the pairing starts in the click that asks for storage.
    await before.setItem('wc@2:core//keychain', { key: 'secret' })
    const firstParty = webStorageInMemory()
    firstParty.setItem('@airlock/activeNetwork', '"eip155:1"')
    const frame = FrameStorage.backend({
      local: () => undefined,
      document: { requestStorageAccess: async () => ({ localStorage: firstParty }) },
      permissions: undefined,
    })
    frame.request()
    await expect.poll(() => FrameStorage.granted()).toBe(firstParty)
    await before.setItem('wc@2:client//session', [session])
    await before.removeItem('wc@2:core//history')
    expect(firstParty.getItem(`${keyPrefix}wc@2:core//keychain`)).toBe('{"key":"secret"}')

    const reloaded = memory()
    expect(Object.fromEntries(await reloaded.getEntries())).toEqual({
      'wc@2:core//keychain': { key: 'secret' },
      'wc@2:client//session': [session],
    })
    // Apart from the modal's own state, which the host page may be handed; never under its prefix.
    expect(firstParty.getItem('@airlock/activeNetwork')).toBe('"eip155:1"')
    const keys = Array.from({ length: firstParty.length }, (_, index) => firstParty.key(index))
    expect(keys.filter((key) => key?.startsWith('@airlock/'))).toEqual(['@airlock/activeNetwork'])

    // An entry tampered with reads as absent; the others still restore.
    firstParty.setItem(`${keyPrefix}wc@2:core//messages`, '{broken')
    const again = memory()
    expect(await again.getItem('wc@2:core//messages')).toBeUndefined()
    expect(await again.getItem('wc@2:client//session')).toEqual([session])
  })
})
