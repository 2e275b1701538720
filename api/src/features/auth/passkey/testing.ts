/**
 * Test support: a software passkey authenticator speaking WebAuthn's real formats, for tests that have no
 * browser (the API's, the modal's custody). Each credential is an ES256 key pair; registration answers an
 * attestation object of format `none` (CBOR) whose authenticator data carries the COSE public key;
 * assertions sign `authenticatorData || SHA-256(clientDataJSON)`. Its PRF is what CTAP's hmac-secret gives,
 * HMAC-SHA256 under a secret per credential over SHA-256("WebAuthn PRF" || 0x00 || salt) (WebAuthn L3
 * §10.1.4), so the same credential and salt give the same 32 bytes, and nothing else does. Flags are UP and UV.
 */
import { createHash, createHmac, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { base64urlnopad } from '@scure/base'
import type * as Contract from '../../../contract/index.ts'

type Credential = {
  id: Uint8Array
  rpId: string
  userHandle: Uint8Array
  privateKey: KeyObject
  publicKey: KeyObject
  prfSecret: Uint8Array
  counter: number
}

export type Ceremony = {
  /** The origin the client data names. @default the authenticator's */
  origin?: string
  /** The RP ID the authenticator data is hashed for. @default the options' */
  rpId?: string
  /** The credential to use. @default the first allowed, or the first of the RP */
  credentialId?: string
  /** The page on top, for a ceremony in a cross-origin frame (the modal's). @default none: top-level */
  topOrigin?: string
}

export type Authenticator = ReturnType<typeof create>

/**
 * @param origin the page the ceremonies run on, as a browser would write it in the client data
 * @example
 * const authenticator = Authenticator.create('http://airlock.localhost:5174')
 * const { response, prf } = authenticator.register(options, salt)
 */
export function create(origin: string, options: { counters?: boolean } = {}) {
  const credentials: Credential[] = []
  const counting = options.counters ?? true

  const authData = (rpId: string, credential: Credential, attested?: Uint8Array) => {
    if (counting) credential.counter += 1
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0)
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(counting ? credential.counter : 0)
    return Buffer.concat([sha256(Buffer.from(rpId)), Buffer.of(flags), counter, attested ?? Buffer.alloc(0)])
  }
  /** As the browser writes it; in a cross-origin frame, with the page on top. */
  const clientData = (type: string, challenge: string, at: string, topOrigin?: string) =>
    Buffer.from(
      JSON.stringify(
        topOrigin
          ? { type, challenge, origin: at, crossOrigin: true, topOrigin }
          : { type, challenge, origin: at, crossOrigin: false },
      ),
    )
  const prfOf = (credential: Credential, salt: Uint8Array) =>
    new Uint8Array(
      createHmac('sha256', credential.prfSecret)
        .update(sha256(Buffer.concat([Buffer.from('WebAuthn PRF'), Buffer.of(0), salt])))
        .digest(),
    )

  return {
    /** The credentials made so far. */
    credentials,
    /** `navigator.credentials.create` for these options: the response as the modal sends it, and the PRF. */
    register(asked: Contract.PasskeyCreationOptions, salt: Uint8Array, ceremony: Ceremony = {}) {
      const id = randomBytes(16)
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const credential: Credential = {
        id,
        rpId: asked.rp.id,
        userHandle: base64urlnopad.decode(asked.user.id),
        privateKey,
        publicKey,
        prfSecret: randomBytes(32),
        counter: 0,
      }
      credentials.push(credential)
      const jwk = publicKey.export({ format: 'jwk' })
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, base64urlnopad.decode(jwk.x ?? '')],
          [-3, base64urlnopad.decode(jwk.y ?? '')],
        ]),
      )
      const length = Buffer.alloc(2)
      length.writeUInt16BE(id.length)
      const attested = Buffer.concat([Buffer.alloc(16), length, id, cose])
      const data = authData(ceremony.rpId ?? asked.rp.id, credential, attested)
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', data],
        ]),
      )
      const response: Contract.RegistrationResponse = {
        id: b64(id),
        rawId: b64(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64(clientData('webauthn.create', asked.challenge, ceremony.origin ?? origin)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      }
      return { response, prf: prfOf(credential, salt) }
    },
    /** `navigator.credentials.get` for these options: the assertion as the modal sends it, and the PRF. */
    assert(asked: Contract.PasskeyRequestOptions, salt: Uint8Array, ceremony: Ceremony = {}) {
      const allowed = asked.allowCredentials?.map((descriptor) => descriptor.id) ?? []
      const wanted = ceremony.credentialId ?? allowed[0]
      const credential = credentials.find((candidate) =>
        wanted ? b64(candidate.id) === wanted : candidate.rpId === asked.rpId,
      )
      if (!credential) throw new Error('No credential of this authenticator matches.')
      const data = authData(ceremony.rpId ?? asked.rpId, credential)
      const client = clientData(
        'webauthn.get',
        asked.challenge,
        ceremony.origin ?? origin,
        ceremony.topOrigin,
      )
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), credential.privateKey)
      const response: Contract.AuthenticationResponse = {
        id: b64(credential.id),
        rawId: b64(credential.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64(client),
          authenticatorData: b64(data),
          signature: b64(signature),
          userHandle: b64(credential.userHandle),
        },
      }
      return { response, prf: prfOf(credential, salt) }
    },
  }
}

const b64 = (bytes: Uint8Array) => base64urlnopad.encode(bytes)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest()

/** CBOR (RFC 8949) of what WebAuthn's structures hold: maps, byte and text strings, small integers. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.of((major << 5) | n)
    if (n < 256) return Buffer.of((major << 5) | 24, n)
    const out = Buffer.alloc(3)
    out[0] = (major << 5) | 25
    out.writeUInt16BE(n, 1)
    return out
  }
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])])
  throw new TypeError(`No CBOR for ${typeof value}`)
}
