/**
 * Sign-in nonces (EIP-4361 `Nonce`): single-use, per project, issued by the service so that a signed
 * message cannot be replayed, whether to this project or another.
 */
import type { Database } from '../../Database.ts'

/** A nonce is good for 5 minutes after it was issued. */
export const nonceTtlMs = 300_000
/**
 * How long a nonce is kept after it expired (1 hour), so a late replay is told "already used"; issuing a
 * nonce deletes every older one, which bounds the table.
 */
export const nonceRetentionMs = 3_600_000

const nonceAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A random nonce of `length` letters and digits (24 carry 142 bits).
 * @example Siwx.randomNonce() // 'q3ZtK0c…'
 */
export function randomNonce(length = 24): string {
  let nonce = ''
  while (nonce.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      // 248 is the largest multiple of 62 below 256: rejecting the rest keeps every character equally likely.
      if (byte < 248 && nonce.length < length) nonce += nonceAlphabet[byte % nonceAlphabet.length]
    }
  }
  return nonce
}

export type Nonce = { nonce: string; expiresAt: number }

/**
 * Issues a nonce for one sign-in of `projectId`, good for {@link nonceTtlMs}. Deletes the nonces of every
 * project that expired more than {@link nonceRetentionMs} ago.
 * @example
 * const { nonce, expiresAt } = await Siwx.issueNonce(db, 'demo', Date.now())
 */
export async function issueNonce(
  db: Pick<Database, 'query'>,
  projectId: string,
  now: number,
): Promise<Nonce> {
  await db.query('delete from siwx_nonces where expires_at < $1', [now - nonceRetentionMs])
  const nonce = randomNonce()
  const expiresAt = now + nonceTtlMs
  await db.query('insert into siwx_nonces (nonce, project_id, expires_at) values ($1, $2, $3)', [
    nonce,
    projectId,
    expiresAt,
  ])
  return { nonce, expiresAt }
}

/** What {@link consumeNonce} found: only `valid` lets a sign-in go on. */
export type NonceState = 'valid' | 'unknown' | 'used' | 'expired'

/**
 * Uses up a nonce: the first call for an issued, unexpired nonce of the project answers `valid`, every later
 * one `used`. An expired nonce is used up too. Atomic, so two racing sign-ins cannot both win.
 * @example
 * if ((await Siwx.consumeNonce(db, 'demo', message.nonce, Date.now())) !== 'valid') throw …
 */
export async function consumeNonce(
  db: Pick<Database, 'query'>,
  projectId: string,
  nonce: string,
  now: number,
): Promise<NonceState> {
  const [consumed] = await db.query<{ expires_at: string }>(
    `update siwx_nonces set used_at = $3 where nonce = $1 and project_id = $2 and used_at is null
     returning expires_at`,
    [nonce, projectId, now],
  )
  if (consumed) return Number(consumed.expires_at) > now ? 'valid' : 'expired'
  const [used] = await db.query('select 1 from siwx_nonces where nonce = $1 and project_id = $2', [
    nonce,
    projectId,
  ])
  return used ? 'used' : 'unknown'
}
