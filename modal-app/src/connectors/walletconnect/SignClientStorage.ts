/**
 * Storage for WalletConnect SignClients where the frame may not open IndexedDB (third-party storage
 * blocked), and for the tests' phone wallets in Node, which write no files this way. Each client sees only
 * its own keys. The keys are secrets: they stay in memory, or in first-party storage the browser granted
 * this frame, and never go to the host page.
 */
import type SignClient from '@walletconnect/sign-client'
import * as FrameStorage from '../../core/FrameStorage.ts'

export type Storage = NonNullable<NonNullable<Parameters<typeof SignClient.init>[0]>['storage']>

/** Where the entries go in the first-party `localStorage`: apart from the modal's `@airlock/` state. */
export const keyPrefix = 'airlock-wc:'

/**
 * Memory, and once the browser grants this frame first-party storage (`FrameStorage.granted()`) that too,
 * so the session survives a reload: what was written before the grant goes along (a pairing may start in
 * the very click that asked), and what an earlier page load kept is read back.
 * @example SignClient.init({ …, storage: SignClientStorage.memory() })
 */
export function memory(): Storage {
  const entries = new Map<string, unknown>(seeded)
  live = entries
  let kept: ReturnType<typeof firstParty> | undefined
  const sync = () => {
    const store = FrameStorage.granted()
    if (kept || !store) return
    kept = firstParty(store)
    for (const [key, value] of kept.entries()) if (!entries.has(key)) entries.set(key, value)
    for (const [key, value] of entries) kept.set(key, value)
  }
  return {
    getKeys: async () => {
      sync()
      return [...entries.keys()]
    },
    getEntries: async <T>() => {
      sync()
      return [...entries.entries()] as [string, T][]
    },
    getItem: async <T>(key: string) => {
      sync()
      return entries.get(key) as T | undefined
    },
    setItem: async (key: string, value: unknown) => {
      sync()
      entries.set(key, value)
      kept?.set(key, value)
    },
    removeItem: async (key: string) => {
      sync()
      entries.delete(key)
      kept?.remove(key)
    },
  }
}

// The memory store of this frame's client, and what a window kept from an earlier page load for it.
let live: Map<string, unknown> | undefined
let seeded: [string, unknown][] = []

/** What the client holds now, as JSON texts: for a window to keep where this frame may keep nothing. */
export function snapshot(): Record<string, string> {
  return Object.fromEntries([...(live ?? [])].map(([key, value]) => [key, encode(value)]))
}

/**
 * What a window kept for this page, given to the client it starts: call before it starts. Entries that do
 * not parse are left out, as a store sign-client never wrote.
 */
export function seed(kept: Record<string, string>): void {
  seeded = Object.entries(kept).flatMap(([key, text]): [string, unknown][] => {
    try {
      return [[key, decode(text)]]
    } catch {
      return []
    }
  })
}

/** Whether a client started now would find a session: kept in a store, or given by {@link seed}. */
export function hasSeed(): boolean {
  return seeded.length > 0
}

const bigint = '$bigint'
/** JSON with bigints (JSON-RPC ids) keeping their type. */
const encode = (value: unknown) =>
  JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? { [bigint]: String(item) } : item))
const decode = (text: string): unknown =>
  JSON.parse(text, (_, item: unknown) =>
    item && typeof item === 'object' && bigint in item && Object.keys(item).length === 1
      ? BigInt(String((item as Record<string, unknown>)[bigint]))
      : item,
  )

/** Entries as JSON under {@link keyPrefix}. */
function firstParty(store: globalThis.Storage) {
  return {
    entries(): [string, unknown][] {
      const keys = Array.from({ length: store.length }, (_, index) => store.key(index))
      return keys.flatMap((key): [string, unknown][] => {
        try {
          const text = key?.startsWith(keyPrefix) ? store.getItem(key) : null
          return key && text !== null ? [[key.slice(keyPrefix.length), decode(text)]] : []
        } catch {
          // Tampered with: read as absent, as sign-client reads a store it never wrote.
          return []
        }
      })
    },
    set(key: string, value: unknown) {
      try {
        store.setItem(keyPrefix + key, encode(value))
      } catch {
        // Over quota: this entry lasts the page load.
      }
    },
    remove(key: string) {
      try {
        store.removeItem(keyPrefix + key)
      } catch {}
    },
  }
}

/**
 * sign-client's storage module reads `window.localStorage` as it loads. Where the browser denies this frame
 * storage (third-party storage blocked), that read throws and the module cannot load at all, so an
 * in-memory one stands in: such a client is given {@link memory} and never uses it. Call before loading it.
 */
export function standInForDeniedLocalStorage(target: Window = window): void {
  try {
    void target.localStorage
    return
  } catch {
    Object.defineProperty(target, 'localStorage', { value: webStorageInMemory(), configurable: true })
  }
}

/** A Web Storage that lasts as long as this page: the stand-in above, and a first-party store in tests. */
export function webStorageInMemory(): globalThis.Storage {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  }
}
