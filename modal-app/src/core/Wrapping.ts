/**
 * The key that wraps the secrets the modal origin keeps in `localStorage` (this browser's share of an
 * embedded wallet, the login's bearer token, what the approval window keeps for a frame with no storage):
 * AES-256-GCM, drawn once per origin (per storage partition) and kept in that origin's IndexedDB as a
 * non-extractable `CryptoKey`. Script of the modal origin can use it but never read it out (the Web
 * Cryptography API's `extractable` false: `exportKey` and `wrapKey` refuse it), so what `localStorage` holds
 * is ciphertext that opens only in this browser's profile.
 *
 * What it stops: a reader of `localStorage` alone (an XSS-style copy of it sent elsewhere, an extension or
 * tool dumping it, that one file copied) gets nothing it can open. What it does not: script running in the
 * modal origin can still ask the key to unwrap while it runs, and a copied browser profile holds the
 * IndexedDB with the key (SECURITY.md).
 *
 * A wrapped value is `w1:` and base64 of `IV (12 bytes) || ciphertext and tag`, with the name it is stored
 * under as additional data, so a value moved to another name (another site's slot, the share's into the
 * session's) does not open.
 */
import * as base64 from '../shared/encoding/base64.ts'

/** Where the wrapping key comes from; resolves undefined where there is none to be had (no IndexedDB). */
export type Keyring = () => Promise<CryptoKey | undefined>

/** A value kept wrapped that does not open: altered, moved from another name, or wrapped under another key. */
export class UnwrapError extends Error {
  override name = 'UnwrapError'
  constructor(readonly at: string) {
    super(
      `The kept value “${at}” could not be unwrapped: it was altered, or wrapped by another browser profile.`,
    )
  }
}

const prefix = 'w1:'
const database = 'airlock-secrets'
const store = 'keys'
const name = 'wrap/v1'
const ivLength = 12

/** Whether `text` is a wrapped value (as opposed to one an earlier version kept in clear). */
export function isWrapped(text: string): boolean {
  return text.startsWith(prefix)
}

/**
 * This origin's wrapping key, from `idb`, made there on first use; undefined where there is no IndexedDB.
 * Rejects where the browser refuses it (private modes, blocked storage): the caller keeps what works without.
 * @example const key = await Wrapping.key()
 */
export async function key(
  idb: IDBFactory | undefined = globalThis.indexedDB,
): Promise<CryptoKey | undefined> {
  if (!idb) return undefined
  const opening = idb.open(database, 1)
  opening.onupgradeneeded = () => opening.result.createObjectStore(store)
  const db = await request(opening)
  const read = () => request(db.transaction(store).objectStore(store).get(name))
  try {
    const found: unknown = await read()
    if (found instanceof CryptoKey) return found
    const made = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ])
    // Another tab may have made one meanwhile: `add` keeps the first, and whichever is kept is read back.
    await request(db.transaction(store, 'readwrite').objectStore(store).add(made, name)).catch(
      () => undefined,
    )
    const kept: unknown = await read()
    return kept instanceof CryptoKey ? kept : undefined
  } finally {
    db.close()
  }
}

/** `text` wrapped under `key` for the name `at`. */
export async function wrap(key: CryptoKey, at: string, text: string): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(ivLength))
  const sealed = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(at) },
    key,
    encoder.encode(text),
  )
  const out = new Uint8Array(ivLength + sealed.byteLength)
  out.set(iv)
  out.set(new Uint8Array(sealed), ivLength)
  return prefix + base64.encode(out)
}

/** What {@link wrap} wrapped for `at`; throws {@link UnwrapError} for another key or name, or altered bytes. */
export async function unwrap(key: CryptoKey, at: string, wrapped: string): Promise<string> {
  try {
    const bytes = base64.decode(wrapped.slice(prefix.length))
    const plain = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, ivLength), additionalData: encoder.encode(at) },
      key,
      bytes.slice(ivLength),
    )
    return new TextDecoder().decode(plain)
  } catch (error) {
    throw Object.assign(new UnwrapError(at), { cause: error })
  }
}

const encoder = new TextEncoder()

function request<T>(pending: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    pending.onsuccess = () => resolve(pending.result)
    pending.onerror = () => reject(pending.error)
  })
}
