/**
 * What the embedded wallet keeps between page loads: the login's session and this browser's share of each
 * visitor's wallet. Secrets, so only in the modal origin's own or granted storage, never with the host page
 * (`FrameStorage.secretStore`); where neither exists they last the page load. Kept under the page served, as
 * the browser reported it, like the rest of the modal's state: a login on one site is not a login on another.
 */
import * as Contract from '@airlock/api/contract'
import * as S from '@airlock/bridge-protocol/Shape'
import * as FrameStorage from '../../core/FrameStorage.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import type { Session } from './Account.ts'
import { type AccountType, accountTypes } from './AccountType.ts'
import type { ShareStore } from './Vault.ts'

const sessionKey = `${FrameStorage.prefix}embedded/session`
const typeKey = (userId: string) => `${FrameStorage.prefix}embedded/accountType/${encodeURIComponent(userId)}`
const shareKey = (userId: string) => `${FrameStorage.prefix}embedded/share/${encodeURIComponent(userId)}`

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

export type Secrets = ShareStore & {
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
  store: () =>
    | Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>
    | undefined = FrameStorage.secretStore,
): Secrets {
  /** What this page load wrote and the storage refused (undefined: removed): it wins over the storage. */
  const memory = new Map<string, string | undefined>()
  const scoped = (key: string) => {
    const page = origin()
    return page === undefined ? undefined : FrameStorage.scopedKey(page, key)
  }
  const read = (key: string) => {
    const at = scoped(key)
    if (at === undefined) return undefined
    if (memory.has(at)) return memory.get(at)
    try {
      return store()?.getItem(at) ?? undefined
    } catch {
      return undefined
    }
  }
  const write = (key: string, value: string | undefined) => {
    const at = scoped(key)
    if (at === undefined) return
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
  return {
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

function parseSession(text: string | undefined): Session | undefined {
  if (!text) return undefined
  try {
    const parsed = S.parse(session, JSON.parse(text))
    return parsed.ok ? parsed.value : undefined
  } catch {
    return undefined
  }
}
