/**
 * What the approval window keeps for a frame the browser gives no storage (`Keep.ts`): the frame's
 * secrets (an embedded wallet's share and bearer token, WalletConnect's keys) in this origin's first-party
 * `localStorage`, per page served. Kept wrapped where this origin has IndexedDB for the key (`Wrapping.ts`),
 * else in clear as before; what an earlier version kept in clear is wrapped as it is read.
 */
import * as Wrapping from '../Wrapping.ts'
import type { Keep } from './protocol.ts'

/** Where kept entries live in this origin's `localStorage`, per page served. */
const keptPrefix = (scope: string) => `airlock-kept:${scope}:`

/**
 * Does the put, if any, and answers what is kept under the scope. A value that does not unwrap (altered, or
 * wrapped in another browser profile) is answered as absent and left as it is; the others still open.
 * @example const entries = await windowStore.keep(localStorage, { type: 'airlock:keep', scope })
 */
export async function keep(
  local: Storage,
  { scope, put }: Keep,
  keyring: Wrapping.Keyring = () => Wrapping.key(),
): Promise<Record<string, string>> {
  const prefix = keptPrefix(scope)
  const key = await keyring().catch(() => undefined)
  const names = Array.from({ length: local.length }, (_, index) => local.key(index) ?? '')
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length))
  const sealed = async (name: string, value: string) =>
    key ? Wrapping.wrap(key, prefix + name, value) : value
  if (put) {
    const wrapped: [string, string][] = []
    for (const [name, value] of Object.entries(put)) wrapped.push([name, await sealed(name, value)])
    try {
      for (const name of names) local.removeItem(prefix + name)
      for (const [name, value] of wrapped) local.setItem(prefix + name, value)
      return put
    } catch {
      // Over quota: nothing half-kept stays.
      for (const [name] of wrapped) local.removeItem(prefix + name)
      return {}
    }
  }
  const opened: Record<string, string> = {}
  for (const name of names) {
    const kept = local.getItem(prefix + name) ?? ''
    if (!Wrapping.isWrapped(kept)) {
      opened[name] = kept
      // Kept in clear by an earlier version: wrapped in place (left as it was should the storage refuse).
      if (key)
        await sealed(name, kept)
          .then((text) => local.setItem(prefix + name, text))
          .catch(() => {})
      continue
    }
    if (!key) continue
    try {
      opened[name] = await Wrapping.unwrap(key, prefix + name, kept)
    } catch (error) {
      if (error instanceof Wrapping.UnwrapError) console.warn('[airlock]', error.message)
    }
  }
  return opened
}
