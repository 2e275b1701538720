import { describe, expect, it } from 'vitest'
import * as FrameStorage from '../../core/FrameStorage.ts'
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
  }
}

/** The secrets of a frame serving `page` (or a page not known while the getter says undefined). */
function frame(page: string | (() => string | undefined), storage?: ReturnType<typeof webStorage>) {
  return Secrets.create(typeof page === 'string' ? () => page : page, () => storage)
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

function fail(): never {
  throw new DOMException('The frame may keep nothing.', 'SecurityError')
}
