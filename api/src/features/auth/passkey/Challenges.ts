/**
 * WebAuthn challenges, each good for one ceremony: handed out with the options, taken (deleted) by the first
 * answer that names it, whatever comes of that answer's checks, so an assertion replayed finds none. A
 * registration's challenge is its user's; a login's is anyone's, in its project.
 */
import type { Database } from '../../../Database.ts'

/** A ceremony takes at most this long, authenticator prompt included. */
const challengeTtlMs = 5 * 60_000

type Purpose = 'register' | 'login'

/** A challenge handed out: base64url, as the options carry it. */
export type Challenge = {
  challenge: string
  purpose: Purpose
  userId?: string | undefined
  projectId: string
}

/**
 * Keeps a challenge handed out now; the expired ones go at the same time.
 * @example await Challenges.put(db, { challenge: options.challenge, purpose: 'login', projectId }, Date.now())
 */
export async function put(db: Pick<Database, 'query'>, challenge: Challenge, now: number): Promise<void> {
  await db.query('delete from auth_passkey_challenges where expires_at <= $1', [now])
  await db.query(
    `insert into auth_passkey_challenges (challenge, purpose, user_id, project_id, expires_at)
     values ($1, $2, $3, $4, $5)`,
    [
      challenge.challenge,
      challenge.purpose,
      challenge.userId ?? null,
      challenge.projectId,
      now + challengeTtlMs,
    ],
  )
}

/**
 * Takes `challenge` if it was handed out for `purpose` in the project (and, for a registration, to this
 * user) and has not expired; either way it is used up.
 * @example const taken = await Challenges.take(db, { challenge, purpose: 'login', projectId }, Date.now())
 */
export async function take(db: Pick<Database, 'query'>, expected: Challenge, now: number): Promise<boolean> {
  const [row] = await db.query<{
    purpose: string
    user_id: string | null
    project_id: string
    expires_at: string
  }>(
    'delete from auth_passkey_challenges where challenge = $1 returning purpose, user_id, project_id, expires_at',
    [expected.challenge],
  )
  return (
    row !== undefined &&
    row.purpose === expected.purpose &&
    row.project_id === expected.projectId &&
    (row.user_id ?? undefined) === expected.userId &&
    Number(row.expires_at) > now
  )
}
