/**
 * Login sessions: what a right login code (or a social or Farcaster login) opens, for 30 days, in one project. Opening one draws a
 * bearer token, handed out once; only its HMAC under the configuration's secret is stored, so neither a
 * copy of the database nor its hashes let anyone in.
 */
import { base64urlnopad } from '@scure/base'
import type { Database } from '../../Database.ts'
import * as Hmac from './Hmac.ts'
import type { User } from './Users.ts'

/** A session lasts 30 days from the login; it is not extended by use. */
export const sessionTtlMs = 30 * 86_400_000

/** A session; times are epoch milliseconds. Its token is not here: only its HMAC is stored. */
export type Session = { id: string; userId: string; projectId: string; expiresAt: number }

export type OpenParameters = { userId: string; projectId: string; secret: string; now: number }

/**
 * Opens a session for the user in the project and draws its token: 32 random bytes as base64url, never
 * stored nor shown again.
 * @example const { session, token } = await Sessions.open(db, { userId, projectId, secret, now: Date.now() })
 */
export async function open(
  db: Pick<Database, 'query'>,
  parameters: OpenParameters,
): Promise<{ session: Session; token: string }> {
  const token = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
  const session: Session = {
    id: crypto.randomUUID(),
    userId: parameters.userId,
    projectId: parameters.projectId,
    expiresAt: parameters.now + sessionTtlMs,
  }
  await db.query(
    `insert into auth_sessions (id, user_id, project_id, token_hash, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [
      session.id,
      session.userId,
      session.projectId,
      hashOf(parameters.secret, token),
      parameters.now,
      session.expiresAt,
    ],
  )
  return { session, token }
}

export type FindParameters = { token: string; projectId: string; secret: string; now: number }

/**
 * The active session of the project (neither revoked nor expired) whose token this is, with its user;
 * `undefined` for any other token. Found by the token's HMAC, so the token itself is never stored.
 * @example const found = await Sessions.find(db, { token, projectId, secret, now: Date.now() })
 */
export async function find(
  db: Pick<Database, 'query'>,
  parameters: FindParameters,
): Promise<{ session: Session; user: User } | undefined> {
  const [row] = await db.query<{
    id: string
    user_id: string
    project_id: string
    expires_at: string
    email: string | null
    created_at: string
  }>(
    `select s.id, s.user_id, s.project_id, s.expires_at, u.email, u.created_at
     from auth_sessions s join users u on u.id = s.user_id
     where s.token_hash = $1 and s.project_id = $2 and s.revoked_at is null and s.expires_at > $3`,
    [hashOf(parameters.secret, parameters.token), parameters.projectId, parameters.now],
  )
  if (!row) return undefined
  return {
    session: {
      id: row.id,
      userId: row.user_id,
      projectId: row.project_id,
      expiresAt: Number(row.expires_at),
    },
    user: { id: row.user_id, email: row.email, createdAt: Number(row.created_at) },
  }
}

/**
 * Ends a session; revoking twice keeps the first time.
 * @example await Sessions.revoke(db, session.id, Date.now())
 */
export async function revoke(db: Pick<Database, 'query'>, id: string, now: number): Promise<void> {
  await db.query('update auth_sessions set revoked_at = coalesce(revoked_at, $2) where id = $1', [id, now])
}

/**
 * Ends every active session of the user but `keep`, in every project: what changing the email does, so that
 * whoever held a session before (a stolen token, a shared computer) is not carried over to the new address.
 * @example await Sessions.revokeOthers(db, { userId: user.id, keep: session.id, now: Date.now() })
 */
export async function revokeOthers(
  db: Pick<Database, 'query'>,
  parameters: { userId: string; keep: string; now: number },
): Promise<void> {
  await db.query(
    'update auth_sessions set revoked_at = $3 where user_id = $1 and id <> $2 and revoked_at is null',
    [parameters.userId, parameters.keep, parameters.now],
  )
}

function hashOf(secret: string, token: string): string {
  return Hmac.digest(secret, 'session', token)
}

/** A session token as `Authorization: Bearer <token>` carries it: 32 bytes in base64url. */
const bearer = /^Bearer +([A-Za-z0-9_-]{43})$/i

/** The token of an `Authorization` header, if it is a bearer token of the session's form. */
export function tokenOf(authorization: string | undefined): string | undefined {
  return bearer.exec(authorization ?? '')?.[1]
}
