/**
 * Sign-In With X: `POST /v1/siwx/nonce`, `POST /v1/sessions` and `GET /v1/sessions/{address}`.
 */
import * as Schema from '@airlock/bridge-protocol/Schema'
import * as S from '@airlock/bridge-protocol/Shape'

/** A single-use nonce for one sign-in, and when it stops being accepted (ISO 8601). */
export const nonceAnswer = S.object({
  nonce: S.string(64, 8, /^[A-Za-z0-9]+$/),
  expiresAt: S.optional(S.string(64)),
})
export type NonceAnswer = S.Infer<typeof nonceAnswer>

/**
 * A signed EIP-4361 / CAIP-122 message and its signature, no longer than a session may carry: a longer one
 * is refused before its nonce is spent, not turned into a session no client could read.
 */
export const sessionBody = S.object({
  message: S.string(Schema.signedMessageMax, 1),
  signature: S.string(Schema.signatureMax, 1),
})
export type SessionBody = S.Infer<typeof sessionBody>

/**
 * The session a sign-in opened. `token` is its bearer credential, answered by this route only. The API
 * always sends `expiresAt`; a client may read its absence (or `null`) as "no expiry".
 */
export const sessionAnswer = S.object({
  id: S.string(64, 1),
  address: S.string(220, 1),
  chainId: S.string(80, 1),
  message: S.string(Schema.signedMessageMax, 1),
  signature: S.string(Schema.signatureMax, 1),
  issuedAt: S.string(64, 1),
  expiresAt: S.optional(S.nullable(S.string(64))),
  token: S.string(128, 16),
})
export type SessionAnswer = S.Infer<typeof sessionAnswer>

/**
 * What anyone may read of an account's sessions: which exist, and until when. (The API also sends each
 * one's `address`, `chainId` and `issuedAt`; never its message, signature or token.)
 */
export const sessionSummary = S.object({
  id: S.string(64, 1),
  expiresAt: S.optional(S.nullable(S.string(64))),
})
export type SessionSummary = S.Infer<typeof sessionSummary>

export const sessionsAnswer = S.object({ sessions: S.array(sessionSummary, 100) })
export type SessionsAnswer = S.Infer<typeof sessionsAnswer>
