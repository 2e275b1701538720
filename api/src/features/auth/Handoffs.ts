/**
 * Handoffs: how a login the provider vouched for reaches the modal without a session token in any URL. The
 * callback draws a one-time code for the modal's page (`social.html#handoff=…`), which trades it within
 * 60 s, once, for the session (`POST /v1/auth/social/exchange`), and only together with the binding of the
 * modal that began the login. Only the code's HMAC is stored, and the binding's.
 */
import { base64urlnopad } from '@scure/base'
import type { SocialProvider } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import * as Hmac from './Hmac.ts'

/** Time enough for the modal's page to load and post the code; a code seen later is worth nothing. */
const handoffTtlMs = 60_000

/** The login a code hands over, and the HMAC of the binding its start was given. */
export type Handoff = {
  userId: string
  projectId: string
  provider: SocialProvider
  username: string | undefined
  bindingHash: string
}

/** The login a redeemed code handed over, with its user's email (null for one made without: Facebook's). */
export type Login = Omit<Handoff, 'bindingHash'> & { email: string | null }

type Keys = { secret: string; now: number }

/**
 * Draws the code of a login: 32 random bytes as base64url, never stored. The expired codes go at the same
 * time.
 * @example const code = await Handoffs.issue(db, { userId, projectId, provider, username, bindingHash }, keys)
 */
export async function issue(db: Pick<Database, 'query'>, handoff: Handoff, keys: Keys): Promise<string> {
  const code = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
  await db.query('delete from auth_social_handoffs where expires_at <= $1', [keys.now])
  await db.query(
    `insert into auth_social_handoffs (code_hash, user_id, project_id, provider, username, binding_hash,
       expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      hashOf(keys.secret, code),
      handoff.userId,
      handoff.projectId,
      handoff.provider,
      handoff.username ?? null,
      handoff.bindingHash,
      keys.now + handoffTtlMs,
    ],
  )
  return code
}

/**
 * The login of a code issued for `projectId` less than 60 s ago to a start given the binding hashed
 * `bindingHash`, with its user's email; `undefined` for any other code (unknown, used, expired, another
 * project's). The code is used up either way, so a code shown with the wrong binding is worth nothing after.
 * @example const login = await Handoffs.redeem(db, code, { projectId, bindingHash, secret, now: Date.now() })
 */
export async function redeem(
  db: Pick<Database, 'query'>,
  code: string,
  keys: Keys & { projectId: string; bindingHash: string },
): Promise<Login | undefined> {
  const [row] = await db.query<{
    user_id: string
    provider: SocialProvider
    username: string | null
    binding_hash: string
    email: string | null
  }>(
    `with taken as (
       delete from auth_social_handoffs where code_hash = $1 and project_id = $2 and expires_at > $3
       returning user_id, provider, username, binding_hash
     )
     select t.user_id, t.provider, t.username, t.binding_hash, u.email
     from taken t join users u on u.id = t.user_id`,
    [hashOf(keys.secret, code), keys.projectId, keys.now],
  )
  if (!row || !Hmac.equal(row.binding_hash, keys.bindingHash)) return undefined
  return {
    userId: row.user_id,
    projectId: keys.projectId,
    provider: row.provider,
    username: row.username ?? undefined,
    email: row.email,
  }
}

function hashOf(secret: string, code: string): string {
  return Hmac.digest(secret, 'social-handoff', code)
}
