/**
 * An OpenID provider's ID token is the person the API logs in, so it is believed only when the provider's
 * keys signed it, for this client, now, and for this login. The provider here speaks the protocol the API
 * asks of Google and Apple (discovery, a JWK Set, a token endpoint), with a token endpoint that answers
 * whatever ID token the test hands it; the dev stack's real one (oidc-provider) logs in through
 * `social.test.ts` and `Presets.test.ts`.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { configOf, modalOrigin } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'

const clientId = 'airlock-test'
const binding = 'b'.repeat(32)
const keys = {
  provider: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  other: generateKeyPairSync('rsa', { modulusLength: 2048 }),
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A compact JWS of `claims`: RS256 with `key`, or unsigned (`alg: none`) without one. */
function jwt(claims: Record<string, unknown>, key: KeyObject | undefined): string {
  const header = key ? { alg: 'RS256', kid: 'provider', typ: 'JWT' } : { alg: 'none', typ: 'JWT' }
  const input = `${base64url(header)}.${base64url(claims)}`
  return `${input}.${key ? sign('sha256', Buffer.from(input), key).toString('base64url') : ''}`
}

let provider: Server
let issuer: string
/** What the token endpoint answers as the next login's ID token. */
let nextIdToken: (nonce: string) => string = () => ''
let db: Database
let api: Service.App

beforeAll(async () => {
  provider = createServer((request, response) => {
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (request.url === '/.well-known/openid-configuration')
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      })
    if (request.url === '/jwks') {
      const jwk = keys.provider.publicKey.export({ format: 'jwk' })
      return json({ keys: [{ ...jwk, kid: 'provider', alg: 'RS256', use: 'sig' }] })
    }
    if (request.url === '/token' && request.method === 'POST') {
      // The nonce the API sent along, which a genuine provider puts in the ID token, rides in the code.
      let body = ''
      request.on('data', (chunk: Buffer) => {
        body += chunk
      })
      request.on('end', () => {
        const nonce = new URLSearchParams(body).get('code') ?? ''
        json({ access_token: 'at', token_type: 'Bearer', expires_in: 60, id_token: nextIdToken(nonce) })
      })
      return
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`
})
afterAll(async () => {
  provider?.closeAllConnections()
  await new Promise((resolve) => provider?.close(resolve))
})

describe.each(databases())('ID tokens on $engine', ({ open }) => {
  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    api = Service.create({
      db,
      config: {
        ...configOf(),
        email: {
          smtp: { host: '127.0.0.1', port: 1 },
          from: 'login@airlock.example',
          secret: 's'.repeat(32),
        },
        social: { providers: { google: { issuer, clientId, clientSecret: 'secret', kind: 'oidc' } } },
      },
    }).api
  })
  afterAll(() => db?.close())

  /** Starts a Google login, lets the provider answer `idToken` for it, and reads where the callback sends the modal. */
  async function login(idToken: (claims: { nonce: string; now: number }) => string) {
    const start = await api.request(`/v1/auth/social/google/start?projectId=demo&binding=${binding}`)
    const authorization = new URL(start.headers.get('location') ?? '')
    const state = authorization.searchParams.get('state') ?? ''
    const nonce = authorization.searchParams.get('nonce') ?? ''
    nextIdToken = (sent) => idToken({ nonce: sent, now: Math.floor(Date.now() / 1000) })
    const back = await api.request(
      `/v1/auth/social/google/callback?code=${encodeURIComponent(nonce)}&state=${encodeURIComponent(state)}`,
    )
    const location = new URL(back.headers.get('location') ?? '')
    expect(`${location.origin}${location.pathname}`).toBe(`${modalOrigin}/social.html`)
    return Object.fromEntries(new URLSearchParams(location.hash.slice(1)))
  }
  const claims = (nonce: string, now: number, subject: string) => ({
    iss: issuer,
    aud: clientId,
    sub: subject,
    iat: now,
    exp: now + 300,
    nonce,
    email: `${subject}@id-token.test`,
    email_verified: true,
  })

  it("logs in the person of an ID token the provider's key signed", async () => {
    const landed = await login(({ nonce, now }) => jwt(claims(nonce, now, 'ada'), keys.provider.privateKey))
    expect(landed.handoff).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it.each([
    [
      'signed by another key under the same key id',
      (nonce: string, now: number) => jwt(claims(nonce, now, 'mallory'), keys.other.privateKey),
    ],
    [
      'not signed at all (alg none)',
      (nonce: string, now: number) => jwt(claims(nonce, now, 'mallory'), undefined),
    ],
    [
      'expired',
      (nonce: string, now: number) =>
        jwt({ ...claims(nonce, now - 3_600, 'mallory'), exp: now - 600 }, keys.provider.privateKey),
    ],
    [
      'for another client (audience)',
      (nonce: string, now: number) =>
        jwt({ ...claims(nonce, now, 'mallory'), aud: 'someone-else' }, keys.provider.privateKey),
    ],
    [
      'from another issuer',
      (nonce: string, now: number) =>
        jwt({ ...claims(nonce, now, 'mallory'), iss: 'https://accounts.example' }, keys.provider.privateKey),
    ],
    [
      'for another login (nonce)',
      (nonce: string, now: number) => jwt(claims(`${nonce}x`, now, 'mallory'), keys.provider.privateKey),
    ],
  ])('refuses an ID token %s, and creates no one', async (_, idToken) => {
    expect(await login(({ nonce, now }) => idToken(nonce, now))).toEqual({ error: 'provider_error' })
    expect(await db.query("select 1 from users where email = 'mallory@id-token.test'")).toEqual([])
  })
})
