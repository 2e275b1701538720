/**
 * Where the modal's state lives in a browser that may deny a third-party frame its storage. In order: the
 * frame's own storage (first-party, or partitioned by the page's site, which survives a reload there);
 * first-party storage the browser grants through the Storage Access API; memory the host page keeps over
 * the bridge. WalletConnect's keys go only to the first two: the host page may read what it keeps.
 *
 * The first two may be shared by every site that frames the modal: a browser that does not partition a
 * frame's storage, first-party storage granted to it, and the modal in a window of its own all see one
 * store. So the modal's keys there are scoped by the page the modal serves, or one site would read what
 * the visitor connected on another.
 */
import type { KeyValue } from './Storage.ts'

/**
 * Where the modal's keys start, wherever they are kept. This module imports nothing else at run time, so
 * WalletConnect's lazily loaded client can ask it for the grant without pulling the first chunk apart.
 */
export const prefix = '@airlock/'

/** The modal origin's `localStorage`; undefined where the browser denies it to this frame. */
function local(): globalThis.Storage | undefined {
  try {
    return usable(globalThis.localStorage)
  } catch {
    return undefined
  }
}

/** The store, when it takes a write; a denied one throws, here or when it is read, in the caller's `try`. */
function usable(store: globalThis.Storage | undefined): globalThis.Storage | undefined {
  if (!store) return undefined
  store.setItem(`${prefix}probe`, '1')
  store.removeItem(`${prefix}probe`)
  return store
}

/** The handle's IndexedDB; undefined where it has none, or reading it throws (storage denied all the same). */
function databasesOf(handle: { indexedDB?: IDBFactory } | undefined): IDBFactory | undefined {
  try {
    return handle?.indexedDB
  } catch {
    return undefined
  }
}

/** The host's side of a backend it keeps (`Schema.hostApi`'s storageRead and storageWrite). */
export type HostKeeper = {
  storageRead(): Promise<Record<string, string>>
  storageWrite(input: { key: string; value: string | null }): Promise<void>
}

/**
 * For a browser that denies this frame storage (third-party storage blocked): memory, kept by the host
 * page once attached, so a reload remembers the connection. The host page can read all of it, so only
 * what it may see goes here: wallet keys, the chosen network, and sign-in sessions, which it sees anyway.
 * Until attached, and with a host too old to keep state, it is memory alone.
 */
export function keptByHost(): KeyValue & {
  attach(host: HostKeeper): Promise<void>
  /** Everything held now, by full key. */
  entries(): [string, string][]
} {
  const items = new Map<string, string>()
  let host: HostKeeper | undefined
  const keep = (key: string, value: string | null) => {
    if (key.startsWith(prefix))
      void host?.storageWrite({ key: key.slice(prefix.length), value }).catch(() => {})
  }
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      items.set(key, value)
      keep(key, value)
    },
    removeItem(key) {
      items.delete(key)
      keep(key, null)
    },
    entries: () => [...items],
    async attach(next) {
      // What the page kept is the page's word: every read parses it, and anything unreadable reads as empty.
      const kept = await next.storageRead().catch(() => ({}) as Record<string, string>)
      for (const [name, value] of Object.entries(kept))
        if (!items.has(prefix + name)) items.set(prefix + name, value)
      host = next
    },
  }
}

/** Where the state lives: the frame's own storage, first-party storage granted to it, or the host page. */
type Place = 'frame' | 'granted' | 'host'

export type Backend = KeyValue & {
  place(): Place
  /**
   * The page this frame serves, from the handshake: its state is read and written under it from now on.
   * Before, nothing is read and writes last the page load.
   */
  serve(origin: string): void
  /** Settles once a grant from an earlier visit is in use, or known to be absent; never rejects. */
  ready: Promise<void>
  /** Lets the host page keep the state, while it is the host's to keep. */
  attach(host: HostKeeper): Promise<void>
  /**
   * Asks the browser for first-party storage, once, where the frame has none: call it inside a click.
   * Settles with the browser's answer (the same one for every later call); never rejects.
   */
  request(): Promise<void>
}

export type Env = {
  /** The Storage Access API; Chromium's "beyond cookies" form answers with first-party stores. */
  document?:
    | { requestStorageAccess?: (types: { localStorage: true; indexedDB: true }) => Promise<unknown> }
    | undefined
  permissions?: { query(descriptor: { name: 'storage-access' }): Promise<{ state: string }> } | undefined
  /** @default {@link local} */
  local?: () => globalThis.Storage | undefined
}

// Facts about this document, like the grant itself: one frame, one backend.
let firstParty: globalThis.Storage | undefined
let firstPartyDatabases: IDBFactory | undefined
let current: Backend | undefined

/** The first-party `localStorage` the browser granted this document, if it did. */
export function granted(): globalThis.Storage | undefined {
  return firstParty
}

/**
 * The first-party IndexedDB that came with that grant, where the browser's handle brings one: the home of
 * the key that wraps what the granted `localStorage` keeps (`Wrapping.ts`).
 */
export function grantedDatabases(): IDBFactory | undefined {
  return firstPartyDatabases
}

/**
 * Where a secret may be kept past this page load: the frame's own storage, else first-party storage the
 * browser granted; undefined where only the host page could keep it, which must never see a secret.
 */
export function secretStore(): globalThis.Storage | undefined {
  return local() ?? firstParty
}

/** Whether this document's backend is memory the host page keeps: the frame has no storage of its own. */
export function denied(): boolean {
  return current?.place() === 'host'
}

/** {@link Backend.request} of this document's backend: for the click that starts a connection. */
export function request(): Promise<void> {
  return current?.request() ?? Promise.resolve()
}

/**
 * The modal's backend in its frame, in the order above. A grant from an earlier visit is used at once (no
 * gesture needed then); otherwise {@link Backend.request} asks in the visitor's click, and a grant then
 * takes along what this visit holds.
 * @example
 * const backend = FrameStorage.backend()
 * const storage = Storage.create(backend)
 * await backend.ready
 */
export function backend(env: Env = {}): Backend {
  const own = env.local ?? local
  const frame = own()
  const doc = 'document' in env ? env.document : globalThis.document
  const kept = keptByHost()
  let store: KeyValue = kept
  let served: string | undefined
  let grant: globalThis.Storage | undefined
  let asked: Promise<void> | undefined
  const place = (): Place => (frame ? 'frame' : grant ? 'granted' : 'host')

  /** Moves to the store of the page served, taking along what this visit holds, which is newer. */
  const adopt = () => {
    const target = frame ?? grant
    if (!target || served === undefined || store !== kept) return
    const next = scoped(target, served)
    for (const [key, value] of kept.entries()) next.setItem(key, value)
    store = next
  }

  const ask = async () => {
    try {
      // Chromium hands back a handle; Firefox and Safari unblock the frame's own storage instead.
      const handle = (await doc?.requestStorageAccess?.({ localStorage: true, indexedDB: true })) as {
        localStorage?: Storage
        indexedDB?: IDBFactory
      }
      const handed = usable(handle?.localStorage)
      const next = handed ?? own()
      if (!next || place() !== 'host') return
      grant = next
      firstParty = next
      firstPartyDatabases = handed ? databasesOf(handle) : globalThis.indexedDB
      adopt()
    } catch {
      // Refused, dismissed, no gesture, or a handle whose storage is denied all the same: the host keeps it.
    }
  }
  const permissions = 'permissions' in env ? env.permissions : globalThis.navigator?.permissions

  current = {
    getItem: (key) => store.getItem(key),
    setItem: (key, value) => store.setItem(key, value),
    removeItem: (key) => store.removeItem(key),
    place,
    serve(origin) {
      served ??= origin
      adopt()
    },
    ready: frame
      ? Promise.resolve()
      : Promise.resolve()
          .then(() => permissions?.query({ name: 'storage-access' }))
          .then((status) => (status?.state === 'granted' ? ask() : undefined))
          .catch(() => {}),
    attach: (host) => (place() === 'host' ? kept.attach(host) : Promise.resolve()),
    request() {
      if (place() !== 'host' && !asked) return Promise.resolve()
      asked ??= ask()
      return asked
    },
  }
  return current
}

/** Where `@airlock/<name>` of the page `origin` lives in a store that may be shared between sites. */
export function scopedKey(origin: string, key: string): string {
  return key.startsWith(prefix) ? `${prefix}${origin}/${key.slice(prefix.length)}` : key
}

function scoped(store: globalThis.Storage, origin: string): KeyValue {
  return {
    getItem: (key) => store.getItem(scopedKey(origin, key)),
    setItem: (key, value) => store.setItem(scopedKey(origin, key), value),
    removeItem: (key) => store.removeItem(scopedKey(origin, key)),
  }
}
