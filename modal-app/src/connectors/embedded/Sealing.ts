/**
 * Shares sealed: AES-256-GCM under a key its keeper does not hand out (for the recovery share, a key from the
 * visitor's recovery password, or a passkey's PRF output where an origin may use WebAuthn; for the auth share,
 * the API's configured key, on its side in the same format). The visitor
 * and the share's kind are bound as additional data, so a share sealed for another visitor or another role
 * does not open: a database row copied from one account to another, or a recovery share offered as the
 * auth share, fails instead of being used.
 *
 * Sealed format: `version (1) || IV (12, random) || ciphertext and 16-byte tag`. The version byte is also
 * part of the additional data, so it cannot be changed to make the bytes read differently.
 */

const version = 1
const ivLength = 12
const tagLength = 16

/** Whom and what a sealed share is for. */
export type Context = {
  /** The API's id of the visitor. */
  userId: string
  kind: 'auth' | 'recovery' | 'device'
}

/** A sealed share that does not open: another key, visitor or kind, altered bytes, or an unknown version. */
export class SealedShareError extends Error {
  override name = 'SealedShareError'
}

/**
 * Seals `share` for `context` under `key` (AES-GCM, 256 bits).
 * @example const sealed = await Sealing.sealShare(recovery, await Sealing.passwordKey(password, userId), { userId, kind: 'recovery' })
 */
export async function sealShare(share: Uint8Array, key: CryptoKey, context: Context): Promise<Uint8Array> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(ivLength))
  const plain = new Uint8Array(share)
  try {
    const sealed = await globalThis.crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(context), tagLength: tagLength * 8 },
      key,
      plain,
    )
    const out = new Uint8Array(1 + ivLength + sealed.byteLength)
    out[0] = version
    out.set(iv, 1)
    out.set(new Uint8Array(sealed), 1 + ivLength)
    return out
  } finally {
    plain.fill(0)
  }
}

/**
 * The share `sealed` holds, if it was sealed under `key` for exactly `context`; otherwise
 * {@link SealedShareError}.
 * @example const recovery = await Sealing.openShare(sealed, key, { userId, kind: 'recovery' })
 */
export async function openShare(sealed: Uint8Array, key: CryptoKey, context: Context): Promise<Uint8Array> {
  if (sealed[0] !== version || sealed.length < 1 + ivLength + tagLength + 1)
    throw new SealedShareError('Not a sealed share of this version.')
  try {
    const plain = await globalThis.crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: sealed.slice(1, 1 + ivLength),
        additionalData: additionalData(context),
        tagLength: tagLength * 8,
      },
      key,
      sealed.slice(1 + ivLength),
    )
    return new Uint8Array(plain)
  } catch (cause) {
    throw new SealedShareError('The share does not open with this key for this visitor and kind.', { cause })
  }
}

/**
 * The AES-256-GCM key that seals a visitor's recovery share, from their passkey's WebAuthn PRF output (32
 * bytes, relying party the modal origin): HKDF-SHA256 with a fixed salt and the visitor's id as info, so
 * one passkey used for two visitors still gives two keys. Not extractable: script can use it, not read it.
 * Built for a modal origin where WebAuthn is allowed; the views use {@link passwordKey} today (SECURITY.md).
 * @example const key = await Sealing.recoveryKey(new Uint8Array(prf.results.first), userId)
 */
export async function recoveryKey(prfOutput: Uint8Array, userId: string): Promise<CryptoKey> {
  if (prfOutput.length !== 32) throw new RangeError(`A PRF output is 32 bytes, not ${prfOutput.length}.`)
  if (userId === '') throw new RangeError('A recovery key needs the visitor’s id.')
  const material = new Uint8Array(prfOutput)
  try {
    const base = await globalThis.crypto.subtle.importKey('raw', material, 'HKDF', false, ['deriveKey'])
    return await globalThis.crypto.subtle.deriveKey(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: encoder.encode('airlock/recovery-key/v1'),
        info: encoder.encode(userId),
      },
      base,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    )
  } finally {
    material.fill(0)
  }
}

/** The recovery password does not open the recovery share. */
export class WrongPasswordError extends Error {
  override name = 'WrongPasswordError'
}

/** The shortest recovery password taken: PBKDF2 slows each guess, it cannot make a short password long. */
export const passwordMin = 10

/**
 * The AES-256-GCM key that seals a visitor's recovery share, from a recovery password, where no passkey can
 * (WebAuthn refuses origins that are IP addresses, as a self-hosted modal origin may be): PBKDF2-SHA256 with
 * 600,000 iterations (OWASP's 2023 figure) and the visitor's id in the salt, so one password used by two
 * visitors still gives two keys and no table of guesses serves both. Its weakness, said plainly in
 * SECURITY.md: whoever reads the sealed share (the API's database, or any session of the visitor through
 * `GET /v1/wallet`) may try passwords against it offline, each guess costing those 600,000 iterations.
 * @example const key = await Sealing.passwordKey('correct horse battery', userId)
 */
export async function passwordKey(password: string, userId: string): Promise<CryptoKey> {
  if (password.length < passwordMin)
    throw new RangeError(`A recovery password has ${passwordMin} characters or more.`)
  if (userId === '') throw new RangeError('A recovery key needs the visitor’s id.')
  const material = encoder.encode(password.normalize('NFC'))
  try {
    const base = await globalThis.crypto.subtle.importKey('raw', material, 'PBKDF2', false, ['deriveKey'])
    return await globalThis.crypto.subtle.deriveKey(
      {
        name: 'PBKDF2',
        hash: 'SHA-256',
        iterations: 600_000,
        salt: encoder.encode(JSON.stringify(['airlock/recovery-password/v1', userId])),
      },
      base,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    )
  } finally {
    material.fill(0)
  }
}

const encoder = new TextEncoder()

// JSON keeps the parts apart whatever characters the id holds; the version byte leads.
function additionalData({ userId, kind }: Context): Uint8Array<ArrayBuffer> {
  if (userId === '') throw new RangeError('A share is sealed for a visitor: the id is empty.')
  const context = encoder.encode(JSON.stringify(['airlock/share', kind, userId]))
  const data = new Uint8Array(1 + context.length)
  data[0] = version
  data.set(context, 1)
  return data
}
