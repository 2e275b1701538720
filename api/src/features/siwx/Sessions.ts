/**
 * Sign-in sessions: what a verified sign-in opens, until the message's `Expiration Time` and never more
 * than {@link maxSessionMs}. Opening one draws a bearer token, handed out once; only its SHA-256 is stored,
 * and a dApp's backend proves a visitor signed in by presenting it ({@link sessionByToken}). The signed
 * message and signature are kept for the record but are not a credential: whoever saw them could replay
 * them.
 */
import { Caip } from '@airlock/bridge-protocol'
import { sha256 } from '@noble/hashes/sha2'
import { utf8ToBytes } from '@noble/hashes/utils'
import { base64urlnopad, hex } from '@scure/base'
import type { Database } from '../../Database.ts'
import { normalizeAccount } from './Accounts.ts'

/** The longest a session lasts (30 days), whatever the message's `Expiration Time` says, or without one. */
export const maxSessionMs = 30 * 86_400_000
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A sign-in session. Times are epoch milliseconds; `expiresAt` is the message's `Expiration Time`, capped at
 * {@link maxSessionMs} after the sign-in. Its token is not here: only its hash is stored.
 */
export type Session = {
  id: string
  projectId: string
  /** CAIP-10, in {@link normalizeAccount}'s spelling. */
  address: Caip.AccountId
  chainId: Caip.ChainId
  /** The signed message and its signature, for the record; not a credential. */
  message: string
  signature: string
  issuedAt: number
  expiresAt: number
  revokedAt: number | null
}

type SessionRow = {
  id: string
  project_id: string
  address: string
  chain_id: string
  message: string
  signature: string
  issued_at: string
  expires_at: string
  revoked_at: string | null
}

const sessionColumns =
  'id, project_id, address, chain_id, message, signature, issued_at, expires_at, revoked_at'

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    projectId: row.project_id,
    address: row.address as Caip.AccountId,
    chainId: row.chain_id as Caip.ChainId,
    message: row.message,
    signature: row.signature,
    issuedAt: Number(row.issued_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  }
}

export type CreateSessionParameters = {
  projectId: string
  address: string
  message: string
  signature: string
  issuedAt: number
  /** The message's `Expiration Time`, if it has one; capped at `now + maxSessionMs`. */
  expiresAt?: number | undefined
  now: number
}

/** A session just opened, with its bearer token: 32 random bytes as base64url, never stored nor shown again. */
export type NewSession = { session: Session; token: string }

/**
 * Stores a verified sign-in and draws its token; only the token's SHA-256 is kept.
 * @example
 * const { session, token } = await Siwx.createSession(db, { projectId, address, message, signature, issuedAt, now })
 */
export async function createSession(
  db: Pick<Database, 'query'>,
  parameters: CreateSessionParameters,
): Promise<NewSession> {
  const address = normalizeAccount(parameters.address)
  const { chainId } = Caip.parseAccountId(address)
  const cap = parameters.now + maxSessionMs
  const expiresAt = Math.min(parameters.expiresAt ?? cap, cap)
  const token = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
  const [row] = await db.query<SessionRow>(
    `insert into siwx_sessions (id, project_id, address, chain_id, message, signature, token_hash, issued_at,
       expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${sessionColumns}`,
    [
      crypto.randomUUID(),
      parameters.projectId,
      address,
      chainId,
      parameters.message,
      parameters.signature,
      tokenHash(token),
      parameters.issuedAt,
      expiresAt,
      parameters.now,
    ],
  )
  if (!row) throw new Error('siwx_sessions returned no row')
  return { session: toSession(row), token }
}

/**
 * The active session of the project (neither revoked nor expired) whose token this is; `undefined` for any
 * other token. Found by the token's hash, so the token itself is never compared nor stored.
 * @example
 * const session = await Siwx.sessionByToken(db, 'demo', token, Date.now())
 */
export async function sessionByToken(
  db: Pick<Database, 'query'>,
  projectId: string,
  token: string,
  now: number,
): Promise<Session | undefined> {
  const [row] = await db.query<SessionRow>(
    `select ${sessionColumns} from siwx_sessions
     where token_hash = $1 and project_id = $2 and revoked_at is null and expires_at > $3`,
    [tokenHash(token), projectId, now],
  )
  return row && toSession(row)
}

/** How a session token is stored: its SHA-256, as hex. */
function tokenHash(token: string): string {
  return hex.encode(sha256(utf8ToBytes(token)))
}

/**
 * The account's active sessions in the project (neither revoked nor expired), newest first.
 * @example
 * await Siwx.activeSessions(db, 'demo', 'eip155:1:0xab…', Date.now())
 */
export async function activeSessions(
  db: Pick<Database, 'query'>,
  projectId: string,
  address: string,
  now: number,
): Promise<Session[]> {
  const rows = await db.query<SessionRow>(
    `select ${sessionColumns} from siwx_sessions
     where project_id = $1 and address = $2 and revoked_at is null and expires_at > $3
     order by issued_at desc, id`,
    [projectId, normalizeAccount(address), now],
  )
  return rows.map(toSession)
}

/**
 * A session of the project by id, revoked or not; `undefined` when there is none.
 * @example await Siwx.findSession(db, 'demo', id)
 */
export async function findSession(
  db: Pick<Database, 'query'>,
  projectId: string,
  id: string,
): Promise<Session | undefined> {
  if (!isSessionId(id)) return undefined
  const [row] = await db.query<SessionRow>(
    `select ${sessionColumns} from siwx_sessions where id = $1 and project_id = $2`,
    [id, projectId],
  )
  return row && toSession(row)
}

/**
 * Revokes a session of any project: the operator's path, and the API's once the account signed. Revoking
 * twice keeps the first time.
 * @returns whether the session exists
 * @example await Siwx.revoke(db, '0d6a…')
 */
export async function revoke(db: Pick<Database, 'query'>, id: string, now = Date.now()): Promise<boolean> {
  if (!isSessionId(id)) return false
  const rows = await db.query(
    'update siwx_sessions set revoked_at = coalesce(revoked_at, $2) where id = $1 returning id',
    [id, now],
  )
  return rows.length > 0
}

/** A session id: a UUID. */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value)
}
