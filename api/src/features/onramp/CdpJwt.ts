/**
 * The bearer token of Coinbase Developer Platform's APIs: a JWT signed with a CDP Secret API Key, as CDP's
 * authentication docs describe it. Header `{ alg, kid: <key id>, typ: 'JWT', nonce }`; claims
 * `{ sub: <key id>, iss: 'cdp', nbf, exp: nbf + 120, uris: ['<METHOD> <host><path>'] }`, so a token opens
 * one route for two minutes. ES256 for an EC key in PEM, EdDSA for an Ed25519 key given as base64 (its
 * 32-byte seed and 32-byte public key, as the CDP portal shows it).
 */
import { createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto'

/** How long a token is good for, in seconds: CDP's two minutes. */
const lifetimeS = 120

/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const ed25519Pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex')

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

/** The key a secret names, and the JWT algorithm that goes with it. */
function keyOf(secret: string): { key: KeyObject; alg: 'ES256' | 'EdDSA' } {
  if (secret.includes('-----BEGIN'))
    return { key: createPrivateKey(secret.replace(/\\n/g, '\n')), alg: 'ES256' }
  const raw = Buffer.from(secret, 'base64')
  if (raw.length !== 64 && raw.length !== 32)
    throw new Error('A CDP API key secret is a PEM EC key or a base64 Ed25519 key')
  const der = Buffer.concat([ed25519Pkcs8Prefix, raw.subarray(0, 32)])
  return { key: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }), alg: 'EdDSA' }
}

/**
 * A JWT for `method` on `url`, signed with the key `secret` at `nowS` (unix seconds).
 * @example const jwt = CdpJwt.sign({ keyId, secret, method: 'POST', url: new URL('https://api.developer.coinbase.com/onramp/v1/token'), nowS })
 */
export function signJwt(options: {
  keyId: string
  secret: string
  method: string
  url: URL
  nowS: number
}): string {
  const { key, alg } = keyOf(options.secret)
  const header = { alg, kid: options.keyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') }
  const claims = {
    sub: options.keyId,
    iss: 'cdp',
    nbf: options.nowS,
    exp: options.nowS + lifetimeS,
    uris: [`${options.method} ${options.url.host}${options.url.pathname}`],
  }
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`
  // ES256 is the raw r‖s pair (RFC 7518 §3.4), not DER.
  const signature =
    alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : sign(null, Buffer.from(input), key)
  return `${input}.${base64url(signature)}`
}
