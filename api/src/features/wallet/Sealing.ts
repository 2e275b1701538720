/**
 * Auth shares at rest: AES-256-GCM under the configuration's `wallet.key`, never under anything the
 * database holds. The format is the modal's (`modal-app/src/connectors/embedded/Sealing.ts`):
 * `version (1) || IV (12, random) || ciphertext and 16-byte tag`, with `version || JSON ["airlock/share",
 * "auth", userId]` as additional data. Binding the user means a row copied onto another account does not
 * open for it; binding the kind means a recovery share offered as an auth share does not either.
 */
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto'

const version = 1
const ivLength = 12
const tagLength = 16

/** What sealing adds to a share: the version byte, the IV and the tag. */
export const overhead = 1 + ivLength + tagLength

/** A sealed share that does not open: another key or user, altered bytes, or an unknown version. */
export class SealedShareError extends Error {
  override name = 'SealedShareError'
}

/**
 * The key of `wallet.key` (64 hex characters), as a key object: its bytes do not show in a log.
 * @example const key = Sealing.keyOf(config.wallet.key)
 */
export function keyOf(hex: string): KeyObject {
  const bytes = Buffer.from(hex, 'hex')
  if (bytes.length !== 32) throw new RangeError('A wallet key is 32 bytes (64 hex characters).')
  return createSecretKey(bytes)
}

/**
 * Seals `share` as the auth share of `userId`, under a random IV.
 * @example const sealed = Sealing.seal(share, key, user.id)
 */
export function seal(share: Uint8Array, key: KeyObject, userId: string): Uint8Array {
  const iv = randomBytes(ivLength)
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagLength })
  cipher.setAAD(additionalData(userId))
  const body = Buffer.concat([cipher.update(share), cipher.final(), cipher.getAuthTag()])
  return new Uint8Array(Buffer.concat([Buffer.of(version), iv, body]))
}

/**
 * The auth share `sealed` holds, if it was sealed under `key` for `userId`; otherwise
 * {@link SealedShareError}, never other bytes (the GCM tag checks all of them).
 * @example const share = Sealing.open(row.authShare, key, user.id)
 */
export function open(sealed: Uint8Array, key: KeyObject, userId: string): Uint8Array {
  if (sealed[0] !== version || sealed.length <= overhead)
    throw new SealedShareError('Not a sealed share of this version.')
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 1 + ivLength), {
    authTagLength: tagLength,
  })
  decipher.setAAD(additionalData(userId))
  decipher.setAuthTag(sealed.subarray(sealed.length - tagLength))
  try {
    const plain = Buffer.concat([
      decipher.update(sealed.subarray(1 + ivLength, sealed.length - tagLength)),
      decipher.final(),
    ])
    return new Uint8Array(plain)
  } catch (cause) {
    throw new SealedShareError('The auth share does not open with this key for this user.', { cause })
  }
}

// As the modal builds it, so either side opens what the other sealed: JSON keeps the parts apart whatever
// characters the id holds, and the version byte leads.
function additionalData(userId: string): Buffer {
  if (userId === '') throw new RangeError('A share is sealed for a user: the id is empty.')
  return Buffer.concat([Buffer.of(version), Buffer.from(JSON.stringify(['airlock/share', 'auth', userId]))])
}
