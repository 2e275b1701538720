/**
 * The keyed hashes under which codes and session tokens are stored: HMAC-SHA256 under the configuration's
 * `email.secret`. A plain hash of a 6-digit code would fall to a million guesses offline; without the
 * secret, a copy of the database alone tests nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The HMAC of `parts` (joined by NUL, which none of them holds) under `secret`, as hex. The first part names
 * what is hashed, so a code's hash can never pass for a token's.
 * @example Hmac.digest(secret, 'session', token)
 */
export function digest(secret: string, ...parts: readonly string[]): string {
  return createHmac('sha256', secret).update(parts.join('\0')).digest('hex')
}

/** Compares two digests in constant time, so the time taken tells nothing of how much matched. */
export function equal(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}
