/**
 * One WebAuthn ceremony in this document (the modal's frame, or the approval window of the modal origin):
 * the API's options in WebAuthn's JSON form become the browser's call, with the PRF extension asked for, and
 * the answer becomes JSON again for the API, without its extension outputs. The PRF output (WebAuthn L3
 * §10.1.4, CTAP's hmac-secret) is handed back apart: it seals the recovery share and never leaves the modal
 * origin. Written out rather than `PublicKeyCredential.parseCreationOptionsFromJSON` / `toJSON`, which not
 * every browser has, and whose `toJSON` would carry the PRF output along.
 */
import type * as Contract from '@airlock/api/contract'
import * as base64url from '../encoding/base64url.ts'

/** What to ask the authenticator: the API's options, as `Contract` shapes them. */
export type Request =
  | { kind: 'create'; options: Contract.PasskeyCreationOptions }
  | { kind: 'get'; options: Contract.PasskeyRequestOptions }

/** The authenticator's answer, for the API, and its PRF output for the salt below, if it gave one. */
export type Result =
  | { kind: 'create'; response: Contract.RegistrationResponse; prf: Uint8Array | undefined }
  | { kind: 'get'; response: Contract.AuthenticationResponse; prf: Uint8Array | undefined }

/**
 * The one PRF input the modal asks for, the same for every credential and ceremony, so a passkey gives the
 * same 32 bytes whenever it unlocks (the authenticator mixes in its own per-credential secret; the visitor's
 * id goes in later, in HKDF's info: `Sealing.recoveryKey`).
 */
export const prfSalt = new TextEncoder().encode('airlock/recovery-prf/v1')

type Credentials = Pick<CredentialsContainer, 'create' | 'get'>

/**
 * Runs `request` here. Rejects as the browser does: `NotAllowedError` for a cancelled or timed-out prompt or
 * a frame not allowed to, `InvalidStateError` for a passkey registered already.
 * @example const { response, prf } = await Ceremony.run({ kind: 'get', options })
 */
export async function run(
  request: Request,
  credentials: Credentials = navigator.credentials,
): Promise<Result> {
  if (request.kind === 'get') {
    const credential = await assert(credentials, request.options)
    return { kind: 'get', response: assertion(credential), prf: prfOf(credential) }
  }
  const { options } = request
  const credential = (await credentials.create({
    publicKey: {
      challenge: base64url.decode(options.challenge),
      rp: options.rp,
      user: { ...options.user, id: base64url.decode(options.user.id) },
      pubKeyCredParams: options.pubKeyCredParams,
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      excludeCredentials: (options.excludeCredentials ?? []).map(descriptor),
      ...(options.authenticatorSelection ? { authenticatorSelection: options.authenticatorSelection } : {}),
      attestation: options.attestation ?? 'none',
      extensions: { prf: { eval: { first: prfSalt } } },
    },
  })) as PublicKeyCredential | null
  if (!credential) throw new DOMException('No passkey was created.', 'NotAllowedError')
  const response = credential.response as AuthenticatorAttestationResponse
  const created: Contract.RegistrationResponse = {
    id: credential.id,
    rawId: base64url.encode(new Uint8Array(credential.rawId)),
    type: 'public-key',
    response: {
      clientDataJSON: base64url.encode(new Uint8Array(response.clientDataJSON)),
      attestationObject: base64url.encode(new Uint8Array(response.attestationObject)),
      transports: response.getTransports?.() ?? [],
    },
    ...attachment(credential),
  }
  let prf = prfOf(credential)
  // Many authenticators evaluate the PRF only when asserting (CTAP 2.1's hmac-secret): one assertion of the
  // new credential, with a challenge no server needs, brings it.
  if (!prf && extensionsOf(credential).prf?.enabled) {
    const challenge = base64url.encode(globalThis.crypto.getRandomValues(new Uint8Array(32)))
    const allowCredentials = [{ id: created.id, type: 'public-key' as const }]
    prf = prfOf(
      await assert(credentials, {
        challenge,
        rpId: options.rp.id,
        allowCredentials,
        userVerification: 'required',
      }),
    )
  }
  return { kind: 'create', response: created, prf }
}

async function assert(
  credentials: Credentials,
  options: Contract.PasskeyRequestOptions,
): Promise<PublicKeyCredential> {
  const credential = (await credentials.get({
    publicKey: {
      challenge: base64url.decode(options.challenge),
      rpId: options.rpId,
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      allowCredentials: (options.allowCredentials ?? []).map(descriptor),
      userVerification: options.userVerification ?? 'required',
      extensions: { prf: { eval: { first: prfSalt } } },
    },
  })) as PublicKeyCredential | null
  if (!credential) throw new DOMException('No passkey answered.', 'NotAllowedError')
  return credential
}

function assertion(credential: PublicKeyCredential): Contract.AuthenticationResponse {
  const response = credential.response as AuthenticatorAssertionResponse
  const handle = response.userHandle && new Uint8Array(response.userHandle)
  return {
    id: credential.id,
    rawId: base64url.encode(new Uint8Array(credential.rawId)),
    type: 'public-key',
    response: {
      clientDataJSON: base64url.encode(new Uint8Array(response.clientDataJSON)),
      authenticatorData: base64url.encode(new Uint8Array(response.authenticatorData)),
      signature: base64url.encode(new Uint8Array(response.signature)),
      ...(handle && handle.length > 0 ? { userHandle: base64url.encode(handle) } : {}),
    },
    ...attachment(credential),
  }
}

function descriptor({ id, transports }: { id: string; transports?: string[] | undefined }) {
  return {
    id: base64url.decode(id),
    type: 'public-key' as const,
    transports: (transports ?? []) as AuthenticatorTransport[],
  }
}

function attachment(credential: PublicKeyCredential): {
  authenticatorAttachment?: 'platform' | 'cross-platform'
} {
  const value = credential.authenticatorAttachment
  return value === 'platform' || value === 'cross-platform' ? { authenticatorAttachment: value } : {}
}

type PrfOutputs = { enabled?: boolean; results?: { first?: BufferSource } }

function extensionsOf(credential: PublicKeyCredential): { prf?: PrfOutputs } {
  return credential.getClientExtensionResults() as { prf?: PrfOutputs }
}

/** The 32 bytes the PRF gave for {@link prfSalt}, or undefined where the authenticator has none. */
function prfOf(credential: PublicKeyCredential): Uint8Array | undefined {
  const first = extensionsOf(credential).prf?.results?.first
  if (!first) return undefined
  const bytes = ArrayBuffer.isView(first)
    ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength)
    : new Uint8Array(first)
  return bytes.length === 32 ? new Uint8Array(bytes) : undefined
}
