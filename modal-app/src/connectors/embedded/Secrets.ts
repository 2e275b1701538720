/**
 * What the embedded wallet keeps between page loads: the login's session and this browser's share of each
 * visitor's wallet. Secrets, so only in the modal origin's own or granted storage, never with the host page
 * (`FrameStorage.secretStore`); where neither exists they last the page load. Kept under the page served, as
 * the browser reported it, like the rest of the modal's state: a login on one site is not a login on another.
 * Where this document has IndexedDB beside that storage (its own, not a grant's handle), they are kept wrapped
 * under a non-extractable key kept there (`core/Wrapping.ts`): {@link Secrets.ready} unwraps them for the page
 * load. Where it has none, or refuses it (private modes), they are kept as they were before, in clear.
 */
import * as Contract from '@airlock/api/contract'
import * as S from '@airlock/bridge-protocol/Shape'
import * as FrameStorage from '../../core/FrameStorage.ts'
import * as Wrapping from '../../core/Wrapping.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import type { Session } from './Account.ts'
import { type AccountType, accountTypes } from './AccountType.ts'
import type { ShareStore } from './Vault.ts'

const sessionKey = `${FrameStorage.prefix}embedded/session`
const typeKey = (userId: string) => `${FrameStorage.prefix}embedded/accountType/${encodeURIComponent(userId)}`
const shareKey = (userId: string) => `${FrameStorage.prefix}embedded/share/${encodeURIComponent(userId)}`
const leftKey = `${FrameStorage.prefix}embedded/socialReturn`

const session = S.object({
  token: S.string(128, 16),
  user: S.object({
    id: S.string(64, 1),
    email: S.optional(S.string(Contract.emailMax, 3)),
    provider: S.optional(S.union(Contract.socialProvider, S.literal('farcaster'))),
    fid: S.optional(S.number(1, Number.MAX_SAFE_INTEGER)),
    username: S.optional(S.string(256, 1)),
  }),
})

/**
 * A social login that left the page (`social/Leave.ts`): its provider, the binding its start was given, and
 * when it left. A secret like the session: with the `result_uri` the page comes back with, it opens one.
 */
const left = S.object({
  provider: Contract.socialProvider,
  binding: Contract.socialBinding,
  at: S.number(0, Number.MAX_SAFE_INTEGER),
})
export type Left = S.Infer<typeof left>

export type Secrets = ShareStore & {
  /**
   * Learns whether this document has a wrapping key (`core/Wrapping.ts`) and unwraps what is kept under it,
   * for this page load; wraps what an earlier version kept in clear. Writes from then on are wrapped. Before it
   * settles, wrapped values read as absent. Resolves with the values that did not unwrap (each left in the
   * storage as it was, reading as absent); never rejects.
   */
  ready(): Promise<readonly Wrapping.UnwrapError[]>
  session(): Session | undefined
  keepSession(session: Session | undefined): void
  /** The EVM account type the visitor chose (`SmartAccounts.ts`); undefined for the default. */
  accountType(userId: string): AccountType | undefined
  keepAccountType(userId: string, type: AccountType): void
  /** Whether they outlive the page load here; where not, a window of the modal origin may keep them. */
  lasting(): boolean
  /** The session and its share, for that window to keep. */
  entries(): Record<string, string>
  /** Takes back what that window kept. */
  seed(entries: Record<string, string>): void
  /** The social login that left the page, if one did. */
  left(): Left | undefined
  keepLeft(value: Left | undefined): void
  /** Resolves once what was written so far is in the storage (wrapping is asynchronous). */
  written(): Promise<void>
  /** Drops the session and this browser's share of the visitor's wallet: the password opens it next time. */
  forget(userId: string): void
}

/**
 * @example
 * const secrets = Secrets.create(() => kernel.origin())
 * secrets.keepSession(session)
 */
export function create(
  origin: () => string | undefined,
  store: () => Stored | undefined = FrameStorage.secretStore,
  // The wrapping key lives beside the localStorage that keeps the secrets: this document's IndexedDB, or the
  // first-party one a grant's handle brings with its localStorage. A grant without one keeps them in clear.
  keyring: Wrapping.Keyring = async () => {
    const target = store()
    if (!target) return undefined
    if (target !== FrameStorage.granted()) return Wrapping.key()
    const databases = FrameStorage.grantedDatabases()
    return databases && Wrapping.key(databases)
  },
): Secrets {
  /**
   * What this page load wrote and the storage refused (undefined: removed), and what it unwrapped: it wins
   * over the storage.
   */
  const memory = new Map<string, string | undefined>()
  let key: CryptoKey | undefined
  let loaded: Promise<readonly Wrapping.UnwrapError[]> | undefined
  /** Wrapped writes, in order, so the last one lands last. */
  let writes = Promise.resolve()
  const scoped = (name: string) => {
    const page = origin()
    return page === undefined ? undefined : FrameStorage.scopedKey(page, name)
  }
  const read = (name: string) => {
    const at = scoped(name)
    if (at === undefined) return undefined
    if (memory.has(at)) return memory.get(at)
    try {
      const kept = store()?.getItem(at) ?? undefined
      // Wrapped, and not unwrapped by `ready` (another key, or not yet): nothing this page load can use.
      return kept && Wrapping.isWrapped(kept) ? undefined : kept
    } catch {
      return undefined
    }
  }
  const write = (name: string, value: string | undefined) => {
    const at = scoped(name)
    if (at === undefined) return
    if (loaded) return persist(at, value)
    try {
      const target = store()
      if (!target) throw new Error('No storage for this frame.')
      if (value === undefined) target.removeItem(at)
      else target.setItem(at, value)
      memory.delete(at)
    } catch {
      // Denied, full, or none at all: memory keeps it for this page load.
      memory.set(at, value)
    }
  }
  /**
   * Once {@link Secrets.ready} was asked: kept in memory for the page load at once, and in the storage once
   * it is known whether to wrap (and wrapped, where a key exists), in the order written.
   */
  const persist = (at: string, value: string | undefined) => {
    memory.set(at, value)
    writes = writes
      .then(() => loaded)
      .then(async () => {
        const target = store()
        if (value === undefined) return target?.removeItem(at)
        target?.setItem(at, key ? await Wrapping.wrap(key, at, value) : value)
      })
      .catch(() => {})
  }
  return {
    ready() {
      loaded ??= (async () => {
        key = await keyring().catch(() => undefined)
        const target = store()
        if (!key || !target) return []
        const unreadable: Wrapping.UnwrapError[] = []
        // Every page's, as the page served may not be known yet: the frame starts before the handshake.
        const names = Array.from({ length: target.length }, (_, index) => target.key(index) ?? '')
        for (const at of names.filter(isSecret)) {
          const kept = target.getItem(at)
          if (kept === null || memory.has(at)) continue
          // Kept in clear by an earlier version: wrapped now, in place.
          if (!Wrapping.isWrapped(kept)) {
            persist(at, kept)
            continue
          }
          try {
            const text = await Wrapping.unwrap(key, at, kept)
            // A write while it unwrapped is newer.
            if (!memory.has(at)) memory.set(at, text)
          } catch (error) {
            // Left as it is in the storage: it reads as absent, and the rest of what is kept still opens.
            if (error instanceof Wrapping.UnwrapError) unreadable.push(error)
          }
        }
        return unreadable
      })().catch(() => [])
      return loaded
    },
    session: () => parseSession(read(sessionKey)),
    keepSession: (value) => write(sessionKey, value && JSON.stringify(value)),
    share(userId) {
      const text = read(shareKey(userId))
      try {
        return text ? base64.decode(text) : undefined
      } catch {
        return undefined
      }
    },
    keep: (userId, share) => write(shareKey(userId), base64.encode(share)),
    accountType(userId) {
      const kept = read(typeKey(userId))
      return accountTypes.find((type) => type === kept)
    },
    keepAccountType: (userId, type) => write(typeKey(userId), type),
    forget(userId) {
      write(shareKey(userId), undefined)
      write(typeKey(userId), undefined)
      write(sessionKey, undefined)
    },
    left: () => parseJson(left, read(leftKey)),
    keepLeft: (value) => write(leftKey, value && JSON.stringify(value)),
    written: () => writes,
    lasting: () => store() !== undefined,
    entries(): Record<string, string> {
      const kept = parseSession(read(sessionKey))
      const share = kept && read(shareKey(kept.user.id))
      return kept && share ? { session: JSON.stringify(kept), share } : {}
    },
    seed(entries) {
      const parsed = parseSession(entries.session)
      if (!parsed || !entries.share) return
      write(sessionKey, JSON.stringify(parsed))
      write(shareKey(parsed.user.id), entries.share)
    },
  }
}

/** Whether the storage name `at` is one of these secrets, of whichever page (`FrameStorage.scopedKey`). */
function isSecret(at: string): boolean {
  return at.startsWith(FrameStorage.prefix) && at.includes('/embedded/')
}

/** The storage secrets go to: `localStorage`'s calls, and its keys to find them by. */
type Stored = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>

function parseSession(text: string | undefined): Session | undefined {
  return parseJson(session, text)
}

function parseJson<T>(shape: S.Shape<T>, text: string | undefined): T | undefined {
  if (!text) return undefined
  try {
    const parsed = S.parse(shape, JSON.parse(text))
    return parsed.ok ? parsed.value : undefined
  } catch {
    return undefined
  }
}
