/**
 * Passkeys (WebAuthn, relying party the modal origin's host name): `POST /v1/auth/passkey/register/options`
 * and `POST /v1/auth/passkey/register` add one to the session's user; `POST /v1/auth/passkey/login/options`
 * and `POST /v1/auth/passkey/login` open a session with one, no email involved. Binary fields travel as
 * base64url without padding, as WebAuthn's JSON forms (`PublicKeyCredential.toJSON`) write them. Nothing of
 * an extension's output is part of these shapes: the PRF output that seals the recovery share never leaves
 * the modal origin, and a body that carries one has it dropped when parsed.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { sessionUser } from './auth.ts'

/** base64url, unpadded, of 1 to `max` bytes. */
const base64url = /* @__NO_SIDE_EFFECTS__ */ (max: number) =>
  S.string(Math.ceil((max * 4) / 3), 2, /^[A-Za-z0-9_-]+$/)

/** A credential id: 16 to 1023 bytes (WebAuthn §6.1's upper bound). */
export const credentialId = base64url(1023)

const transports = S.optional(S.array(S.string(32, 1), 8))
const descriptor = S.object({ id: credentialId, type: S.literal('public-key'), transports })

/** What `navigator.credentials.create` is asked, in WebAuthn's JSON form (the fields the modal uses). */
export const passkeyCreationOptions = S.object({
  challenge: base64url(64),
  rp: S.object({ id: S.string(253, 1), name: S.string(64, 1) }),
  user: S.object({ id: base64url(64), name: S.string(256, 1), displayName: S.string(256) }),
  pubKeyCredParams: S.array(S.object({ type: S.literal('public-key'), alg: S.number(-65_536, 65_536) }), 8),
  timeout: S.optional(S.number(0, 600_000)),
  excludeCredentials: S.optional(S.array(descriptor, 32)),
  authenticatorSelection: S.optional(
    S.object({
      residentKey: S.optional(S.picklist(['discouraged', 'preferred', 'required'])),
      requireResidentKey: S.optional(S.boolean),
      userVerification: S.optional(S.picklist(['discouraged', 'preferred', 'required'])),
    }),
  ),
  attestation: S.optional(S.picklist(['none', 'indirect', 'direct', 'enterprise'])),
})
export type PasskeyCreationOptions = S.Infer<typeof passkeyCreationOptions>

/** What `navigator.credentials.get` is asked, in WebAuthn's JSON form. */
export const passkeyRequestOptions = S.object({
  challenge: base64url(64),
  rpId: S.string(253, 1),
  timeout: S.optional(S.number(0, 600_000)),
  allowCredentials: S.optional(S.array(descriptor, 32)),
  userVerification: S.optional(S.picklist(['discouraged', 'preferred', 'required'])),
})
export type PasskeyRequestOptions = S.Infer<typeof passkeyRequestOptions>

/** A new credential, as `PublicKeyCredential.toJSON` writes it, less its extension outputs. */
export const registrationResponse = S.object({
  id: credentialId,
  rawId: credentialId,
  type: S.literal('public-key'),
  response: S.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16_384),
    transports,
  }),
  authenticatorAttachment: S.optional(S.picklist(['platform', 'cross-platform'])),
})
export type RegistrationResponse = S.Infer<typeof registrationResponse>

/** An assertion, as `PublicKeyCredential.toJSON` writes it, less its extension outputs. */
export const authenticationResponse = S.object({
  id: credentialId,
  rawId: credentialId,
  type: S.literal('public-key'),
  response: S.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(1024),
    userHandle: S.optional(base64url(64)),
  }),
  authenticatorAttachment: S.optional(S.picklist(['platform', 'cross-platform'])),
})
export type AuthenticationResponse = S.Infer<typeof authenticationResponse>

/** `POST /v1/auth/passkey/register/options`: what the modal asks the authenticator to create. */
export const passkeyCreationAnswer = S.object({ options: passkeyCreationOptions })
export type PasskeyCreationAnswer = S.Infer<typeof passkeyCreationAnswer>

/** `POST /v1/auth/passkey/register`: the credential the authenticator created for those options. */
export const passkeyRegisterBody = S.object({ response: registrationResponse })
export type PasskeyRegisterBody = S.Infer<typeof passkeyRegisterBody>

/** The passkey now belongs to the session's user. */
export const passkeyRegisterAnswer = S.object({ credentialId })
export type PasskeyRegisterAnswer = S.Infer<typeof passkeyRegisterAnswer>

/** `POST /v1/auth/passkey/login/options`: a challenge for any of this relying party's passkeys. */
export const passkeyRequestAnswer = S.object({ options: passkeyRequestOptions })
export type PasskeyRequestAnswer = S.Infer<typeof passkeyRequestAnswer>

/** `POST /v1/auth/passkey/login`: the assertion of one. */
export const passkeyLoginBody = S.object({ response: authenticationResponse })
export type PasskeyLoginBody = S.Infer<typeof passkeyLoginBody>

/**
 * A session opened by a passkey: the same bearer token as an email login's, shown once; the user as
 * `GET /v1/auth/me` answers it.
 */
export const passkeySessionAnswer = S.object({
  token: S.string(128, 16),
  user: sessionUser,
})
export type PasskeySessionAnswer = S.Infer<typeof passkeySessionAnswer>
