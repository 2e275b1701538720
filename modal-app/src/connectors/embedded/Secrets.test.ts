import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import * as FrameStorage from '../../core/FrameStorage.ts'
import * as Wrapping from '../../core/Wrapping.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import type { Session } from './Account.ts'
import * as Secrets from './Secrets.ts'

/**
 * A Web Storage object as a browser hands one out, counting its accesses; `denied` makes every access
 * throw, as a blocked one does.
 */
function webStorage(denied = false) {
  const entries = new Map<string, string>()
  const accesses: string[] = []
  const touch = (what: string) => {
    accesses.push(what)
    if (denied) throw new DOMException('Access is denied for this document.', 'SecurityError')
  }
  return {
    entries,
    accesses,
    getItem(key: string) {
      touch(`get ${key}`)
      return entries.get(key) ?? null
    },
    setItem(key: string, value: string) {
      touch(`set ${key}`)
      entries.set(key, value)
    },
    removeItem(key: string) {
      touch(`remove ${key}`)
      entries.delete(key)
    },
    key: (index: number) => [...entries.keys()][index] ?? null,
    get length() {
      return entries.size
    },
  }
}

/**
 * The secrets of a frame serving `page` (or a page not known while the getter says undefined); `idb` is the
 * IndexedDB of its origin in this browser profile, none by default.
 */
function frame(
  page: string | (() => string | undefined),
  storage?: ReturnType<typeof webStorage>,
  idb?: IDBFactory,
) {
  return Secrets.create(
    typeof page === 'string' ? () => page : page,
    () => storage,
    () => Wrapping.key(idb),
  )
}

const shop = 'https://shop.example'
const news = 'https://news.example'
const session: Session = {
  token: 'T'.repeat(43),
  user: { id: 'user-1', email: 'ada@google.test', provider: 'google' },
}
const share = new Uint8Array([1, 2, 3, 250, 251, 252])

describe('the embedded wallet’s secrets', () => {
  it('keeps the session and each visitor’s share under the page served, and a reload finds them', () => {
    const storage = webStorage()
    const secrets = frame(shop, storage)
    secrets.keepSession(session)
    secrets.keep('user-1', share)
    expect([...storage.entries.keys()].sort()).toEqual([
      FrameStorage.scopedKey(shop, `${FrameStorage.prefix}embedded/session`),
      FrameStorage.scopedKey(shop, `${FrameStorage.prefix}embedded/share/user-1`),
    ])
    const reloaded = frame(shop, storage)
    expect(reloaded.session()).toEqual(session)
    expect(reloaded.share('user-1')).toEqual(share)
    expect(reloaded.share('user-2')).toBeUndefined()
  })

  it('does not show one page’s login or shares to another page', () => {
    const storage = webStorage()
    const onShop = frame(shop, storage)
    const onNews = frame(news, storage)
    onShop.keepSession(session)
    onShop.keep('user-1', share)
    expect(onNews.session()).toBeUndefined()
    expect(onNews.share('user-1')).toBeUndefined()

    const theirs = { ...session, token: 'N'.repeat(43) }
    onNews.keepSession(theirs)
    onNews.keep('user-1', new Uint8Array([9]))
    expect(onShop.session()).toEqual(session)
    expect(onShop.share('user-1')).toEqual(share)
    onNews.keepSession(undefined)
    expect(onNews.session()).toBeUndefined()
    expect(onShop.session()).toEqual(session)
  })

  it('reads and writes nothing before the page is known', () => {
    const storage = webStorage()
    let page: string | undefined
    const secrets = frame(() => page, storage)
    // What a page kept earlier stays unseen until the handshake says which page this is.
    frame(shop, storage).keepSession(session)
    storage.accesses.length = 0
    expect(secrets.session()).toBeUndefined()
    expect(secrets.share('user-1')).toBeUndefined()
    secrets.keepSession({ ...session, token: 'X'.repeat(43) })
    secrets.keep('user-1', share)
    expect(storage.accesses).toEqual([])
    page = shop
    // Nothing of the writes made before, not even in memory: the kept session is the page's own.
    expect(secrets.session()).toEqual(session)
    expect(secrets.share('user-1')).toBeUndefined()
  })

  it('reads a malformed session or share as none', () => {
    const storage = webStorage()
    const secrets = frame(shop, storage)
    const at = (key: string) => FrameStorage.scopedKey(shop, `${FrameStorage.prefix}embedded/${key}`)
    for (const text of [
      '{',
      'null',
      '"a session"',
      JSON.stringify({ token: 'short', user: session.user }),
      JSON.stringify({ token: session.token, user: { id: '', email: 'a@b.c' } }),
      JSON.stringify({ ...session, user: { ...session.user, provider: 'myspace' } }),
    ]) {
      storage.entries.set(at('session'), text)
      expect(secrets.session()).toBeUndefined()
    }
    storage.entries.set(at('session'), JSON.stringify(session))
    expect(secrets.session()).toEqual(session)
    storage.entries.set(at('share/user-1'), '%%% not base64 %%%')
    expect(secrets.share('user-1')).toBeUndefined()
  })

  it('keeps a visitor’s share apart from another whose id looks like a path to it', () => {
    const storage = webStorage()
    const secrets = frame(shop, storage)
    secrets.keep('a/b', share)
    expect(secrets.share('a')).toBeUndefined()
    expect(secrets.share('a%2Fb')).toBeUndefined()
    expect(secrets.share('a/b')).toEqual(share)
  })

  it('falls back to memory for the page load when the storage throws, or cannot be had', () => {
    for (const store of [() => webStorage(true), () => undefined, () => fail()]) {
      const secrets = Secrets.create(() => shop, store)
      expect(secrets.session()).toBeUndefined()
      secrets.keepSession(session)
      secrets.keep('user-1', share)
      expect(secrets.session()).toEqual(session)
      expect(secrets.share('user-1')).toEqual(share)
      secrets.keepSession(undefined)
      expect(secrets.session()).toBeUndefined()
      // Memory lasts the page load only: the next one starts with nothing.
      expect(Secrets.create(() => shop, store).share('user-1')).toBeUndefined()
    }
  })

  it('ends the session in storage and in memory when told none', () => {
    const storage = webStorage()
    const secrets = frame(shop, storage)
    secrets.keepSession(session)
    secrets.keepSession(undefined)
    expect(storage.entries.size).toBe(0)
    expect(secrets.session()).toBeUndefined()
    expect(frame(shop, storage).session()).toBeUndefined()
  })

  it('says whether it outlasts the page load, and hands a keeping window the session with its share only', () => {
    expect(frame(shop, webStorage()).lasting()).toBe(true)
    const secrets = frame(shop)
    expect(secrets.lasting()).toBe(false)
    expect(secrets.entries()).toEqual({})
    secrets.keepSession(session)
    secrets.keep('user-2', share)
    // A session without its visitor's share opens nothing: the window is given nothing to keep.
    expect(secrets.entries()).toEqual({})
    secrets.keep('user-1', share)
    const entries = secrets.entries()
    expect(entries).toEqual({ session: JSON.stringify(session), share: expect.any(String) })

    const next = frame(shop)
    next.seed(entries)
    expect(next.session()).toEqual(session)
    expect(next.share('user-1')).toEqual(share)
    expect(next.share('user-2')).toBeUndefined()
  })

  it('takes back from a keeping window nothing malformed, nothing half, nothing before the page is known', () => {
    const keeper = frame(shop)
    keeper.keepSession(session)
    keeper.keep('user-1', share)
    const kept = keeper.entries().share ?? ''
    let page: string | undefined
    const secrets = frame(() => page)
    secrets.seed({ session: JSON.stringify(session), share: kept })
    page = shop
    expect(secrets.session()).toBeUndefined()
    for (const entries of [
      { session: '{', share: kept },
      { session: JSON.stringify({ ...session, token: 'short' }), share: kept },
      { session: JSON.stringify(session) },
      { share: kept },
    ] as Record<string, string>[]) {
      secrets.seed(entries)
      expect(secrets.session()).toBeUndefined()
      expect(secrets.share('user-1')).toBeUndefined()
    }
  })

  it('reads back a write the storage refused, not what it held before', () => {
    const storage = webStorage()
    frame(shop, storage).keep('user-1', new Uint8Array([7]))
    const full = {
      ...storage,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      },
    }
    const secrets = frame(shop, full)
    secrets.keep('user-1', share)
    expect(secrets.share('user-1')).toEqual(share)
  })
})

describe('the embedded wallet’s secrets, wrapped under a key of the modal origin’s IndexedDB', () => {
  const at = (name: string) => FrameStorage.scopedKey(shop, `${FrameStorage.prefix}embedded/${name}`)
  /** Everything the storage holds, as one text: what a script that reads `localStorage` can copy. */
  const dump = (storage: ReturnType<typeof webStorage>) => JSON.stringify([...storage.entries])
  const inClear = [session.token, base64.encode(share), JSON.stringify(session.user)]

  /** A browser profile where the visitor logged in: its `localStorage` and its IndexedDB. */
  async function loggedIn() {
    const storage = webStorage()
    const idb = new IDBFactory()
    const secrets = frame(shop, storage, idb)
    await secrets.ready()
    secrets.keepSession(session)
    secrets.keep('user-1', share)
    secrets.keepAccountType('user-1', 'eip7702')
    // At once for this page load; in the storage once wrapped.
    expect(secrets.session()).toEqual(session)
    await expect.poll(() => storage.entries.size).toBe(3)
    return { storage, idb }
  }

  it('keeps neither the bearer token nor the share in clear, and a reload in the same browser opens them', async () => {
    const { storage, idb } = await loggedIn()
    for (const text of inClear) expect(dump(storage)).not.toContain(text)
    for (const value of storage.entries.values()) expect(value).toMatch(/^w1:[A-Za-z0-9+/]+=*$/)
    const reloaded = frame(shop, storage, idb)
    expect(reloaded.session()).toBeUndefined()
    expect(await reloaded.ready()).toEqual([])
    expect(reloaded.session()).toEqual(session)
    expect(reloaded.share('user-1')).toEqual(share)
    expect(reloaded.accountType('user-1')).toBe('eip7702')
  })

  it('an attacker who copies localStorage elsewhere opens nothing, and cannot take the key out of the origin', async () => {
    const { storage, idb } = await loggedIn()
    // The copy, opened where the attacker's script runs: another origin, or another browser profile.
    const copy = webStorage()
    for (const [name, value] of storage.entries) copy.entries.set(name, value)
    const elsewhere = frame(shop, copy, new IDBFactory())
    const unreadable = await elsewhere.ready()
    expect(unreadable.map((error) => error.at).sort()).toEqual([...storage.entries.keys()].sort())
    expect(elsewhere.session()).toBeUndefined()
    expect(elsewhere.share('user-1')).toBeUndefined()
    // Nor does the key leave the origin that holds it: WebCrypto refuses to export it in any format.
    const key = (await Wrapping.key(idb)) ?? fail()
    expect(key.extractable).toBe(false)
    for (const format of ['raw', 'jwk', 'pkcs8'] as const)
      await expect(crypto.subtle.exportKey(format, key)).rejects.toThrow()
    // A wrapped value moved to another name (the share into the session's slot) does not open there.
    const moved = webStorage()
    for (const [name, value] of storage.entries) moved.entries.set(name, value)
    moved.entries.set(at('session'), storage.entries.get(at('share/user-1')) ?? '')
    const swapped = frame(shop, moved, idb)
    expect((await swapped.ready()).map((error) => error.at)).toEqual([at('session')])
    expect(swapped.session()).toBeUndefined()
  })

  it('wraps what an earlier version kept in clear on the first load, and the visitor keeps the wallet', async () => {
    const storage = webStorage()
    // The earlier version: plain values, as `ready` was never asked.
    const earlier = frame(shop, storage)
    earlier.keepSession(session)
    earlier.keep('user-1', share)
    expect(dump(storage)).toContain(session.token)
    const idb = new IDBFactory()
    const upgraded = frame(shop, storage, idb)
    await upgraded.ready()
    expect(upgraded.session()).toEqual(session)
    expect(upgraded.share('user-1')).toEqual(share)
    await expect.poll(() => [...storage.entries.values()].every(Wrapping.isWrapped)).toBe(true)
    for (const text of inClear) expect(dump(storage)).not.toContain(text)
    const next = frame(shop, storage, idb)
    await next.ready()
    expect(next.session()).toEqual(session)
    expect(next.share('user-1')).toEqual(share)
  })

  it('says which value an altered ciphertext was, leaves it where it is, and still opens the rest', async () => {
    const { storage, idb } = await loggedIn()
    const wrapped = storage.entries.get(at('share/user-1')) ?? fail()
    const flipped = wrapped.slice(0, 10) + (wrapped[10] === 'A' ? 'B' : 'A') + wrapped.slice(11)
    storage.entries.set(at('share/user-1'), flipped)
    const reloaded = frame(shop, storage, idb)
    const [error, ...more] = await reloaded.ready()
    expect(more).toEqual([])
    expect(error).toBeInstanceOf(Wrapping.UnwrapError)
    expect(error?.message).toBe(
      `The kept value “${at('share/user-1')}” could not be unwrapped: it was altered, or wrapped by another browser profile.`,
    )
    // The share reads as absent (the recovery opens the wallet again); the rest is untouched and opens.
    expect(reloaded.share('user-1')).toBeUndefined()
    expect(reloaded.session()).toEqual(session)
    expect(reloaded.accountType('user-1')).toBe('eip7702')
    expect(storage.entries.get(at('share/user-1'))).toBe(flipped)
    expect(storage.entries.size).toBe(3)
  })

  it('a login while it unwraps is newer than what it unwraps', async () => {
    const { storage, idb } = await loggedIn()
    const next = { ...session, token: 'N'.repeat(43) }
    const before = storage.entries.get(at('session'))
    const reloaded = frame(shop, storage, idb)
    const ready = reloaded.ready()
    reloaded.keepSession(next)
    await ready
    expect(reloaded.session()).toEqual(next)
    await expect.poll(() => storage.entries.get(at('session'))).not.toBe(before)
    const after = frame(shop, storage, idb)
    await after.ready()
    expect(after.session()).toEqual(next)
  })

  it('in first-party storage a grant brought, wraps them under a key in the IndexedDB the grant brought too', async () => {
    const granted = webStorage()
    const databases = new IDBFactory()
    const asked: unknown[] = []
    /** The frame's backend where its own storage is denied and the Storage Access API grants a handle. */
    const grant = async (handle: object) => {
      const backend = FrameStorage.backend({
        local: () => undefined,
        document: {
          requestStorageAccess: async (types) => {
            asked.push(types)
            return handle
          },
        },
        permissions: { query: async () => ({ state: 'granted' }) },
      })
      await backend.ready
      expect(FrameStorage.granted()).toBe(granted)
    }
    // The frame's default keyring: it finds the key beside the storage that keeps the secrets.
    const inGrant = () => Secrets.create(() => shop, FrameStorage.granted)

    await grant({ localStorage: granted, indexedDB: databases })
    expect(asked).toEqual([{ localStorage: true, indexedDB: true }])
    const secrets = inGrant()
    await secrets.ready()
    secrets.keepSession(session)
    secrets.keep('user-1', share)
    await expect.poll(() => granted.entries.size).toBe(2)
    for (const text of inClear) expect(dump(granted)).not.toContain(text)
    for (const value of granted.entries.values()) expect(value).toMatch(/^w1:/)
    const reloaded = inGrant()
    expect(await reloaded.ready()).toEqual([])
    expect(reloaded.session()).toEqual(session)
    expect(reloaded.share('user-1')).toEqual(share)

    // A handle without IndexedDB has nowhere to keep a key: they stay as an earlier version kept them.
    granted.entries.clear()
    await grant({ localStorage: granted })
    const plain = inGrant()
    await plain.ready()
    plain.keepSession(session)
    await expect.poll(() => granted.entries.get(at('session'))).toBe(JSON.stringify(session))
  })

  it('keeps them as before where IndexedDB is refused, and in memory only where storage is', async () => {
    const storage = webStorage()
    // IndexedDB refused (as private modes may): kept in clear, as every version before did.
    const refused = () => Promise.reject(new DOMException('The user denied permission.', 'InvalidStateError'))
    const secrets = Secrets.create(
      () => shop,
      () => storage,
      refused,
    )
    expect(await secrets.ready()).toEqual([])
    secrets.keepSession(session)
    await expect.poll(() => storage.entries.get(at('session'))).toBe(JSON.stringify(session))
    const reloaded = Secrets.create(
      () => shop,
      () => storage,
      refused,
    )
    await reloaded.ready()
    expect(reloaded.session()).toEqual(session)
    // No storage at all (a third-party frame here): the page load keeps them, nothing else does.
    for (const store of [() => webStorage(true), () => undefined]) {
      const alone = Secrets.create(
        () => shop,
        store,
        () => Wrapping.key(new IDBFactory()),
      )
      expect(await alone.ready()).toEqual([])
      alone.keepSession(session)
      alone.keep('user-1', share)
      expect(alone.session()).toEqual(session)
      expect(alone.share('user-1')).toEqual(share)
    }
  })
})

function fail(): never {
  throw new DOMException('The frame may keep nothing.', 'SecurityError')
}
