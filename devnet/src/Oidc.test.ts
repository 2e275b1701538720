import { createHash, randomBytes } from 'node:crypto'
import { Config, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Oidc from './Oidc.ts'

const apiUrl = 'http://127.0.0.1:8787'
let oidc: Oidc.Instance

beforeAll(async () => {
  oidc = await Oidc.start({ apiUrl, port: 0 })
})
afterAll(() => oidc?.stop())

/** An authorization URL as the API builds it, and the PKCE verifier behind its challenge. */
function authorization(
  shape: Oidc.Shape,
  {
    pkce = true,
    redirect = `${apiUrl}/v1/auth/social/${shape}/callback`,
    scope = 'openid email profile',
  } = {},
) {
  const verifier = randomBytes(32).toString('base64url')
  const url = new URL(`${oidc.issuer}/auth`)
  url.search = new URLSearchParams({
    client_id: oidc.clients[shape].clientId,
    response_type: 'code',
    redirect_uri: redirect,
    scope,
    state: 'state-1',
    ...(pkce
      ? {
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        }
      : {}),
  }).toString()
  return { url: url.href, verifier }
}

/** Logs `login` in and trades the code as the API would (client_secret_post, the PKCE verifier, JSON). */
async function tokensOf(shape: Oidc.Shape, login: string, scope?: string) {
  const { url, verifier } = authorization(shape, scope ? { scope } : {})
  const callback = await Oidc.signIn(url, login)
  expect(`${callback.origin}${callback.pathname}`).toBe(`${apiUrl}/v1/auth/social/${shape}/callback`)
  expect(callback.searchParams.get('state')).toBe('state-1')
  const response = await fetch(`${oidc.issuer}/token`, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') ?? '',
      redirect_uri: `${apiUrl}/v1/auth/social/${shape}/callback`,
      code_verifier: verifier,
      client_id: oidc.clients[shape].clientId,
      client_secret: oidc.clients[shape].clientSecret,
    }),
  })
  expect(response.status).toBe(200)
  const tokens = (await response.json()) as { access_token: string; id_token?: string }
  const payload = tokens.id_token?.split('.')[1]
  const idToken = payload && JSON.parse(Buffer.from(payload, 'base64url').toString())
  return { accessToken: tokens.access_token, idToken: idToken as Record<string, unknown> | undefined }
}

describe('Oidc', () => {
  it('is discovered at its loopback issuer, with PKCE S256 and a userinfo endpoint', async () => {
    expect(oidc.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const discovery = await (await fetch(`${oidc.issuer}/.well-known/openid-configuration`)).json()
    expect(discovery).toMatchObject({
      issuer: oidc.issuer,
      code_challenge_methods_supported: ['S256'],
      userinfo_endpoint: `${oidc.issuer}/me`,
    })
    expect(Oidc.socialConfig(oidc).providers.github).toEqual({
      issuer: oidc.issuer,
      ...oidc.clients.github,
      kind: 'oauth2',
      authorizationUrl: `${oidc.issuer}/auth`,
      tokenUrl: `${oidc.issuer}/token`,
      userinfoUrl: `${oidc.issuer}/shapes/github/user`,
    })
  })

  it('signs a Google-shaped login in: the claims in a signed ID token, no handle', async () => {
    const { idToken } = await tokensOf('google', 'ada')
    expect(idToken).toMatchObject({
      iss: oidc.issuer,
      aud: 'airlock-google',
      sub: 'ada',
      email: 'ada@google.test',
      email_verified: true,
      name: 'ada',
      picture: 'https://google.test/ada.png',
    })
    expect(idToken).not.toHaveProperty('preferred_username')
  })

  it("answers a GitHub-shaped login as GitHub's API does: /user, then the addresses at /user/emails", async () => {
    const { accessToken } = await tokensOf('github', 'unverified-linus', 'read:user user:email')
    const ask = async (path: string) => {
      const response = await fetch(`${oidc.issuer}/shapes/github${path}`, {
        headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/vnd.github+json' },
      })
      return response.json()
    }
    expect(await ask('/user')).toMatchObject({
      login: 'unverified-linus',
      id: expect.any(Number),
      email: null,
    })
    expect(await ask('/user/emails')).toContainEqual({
      email: 'unverified-linus@github.test',
      primary: true,
      verified: false,
      visibility: 'private',
    })
  })

  it('refuses a login without PKCE, and one that would redirect anywhere but the API', async () => {
    const refused = await Oidc.signIn(authorization('google', { pkce: false }).url, 'ada')
    expect(refused.searchParams.get('error')).toBe('invalid_request')
    expect(refused.searchParams.has('code')).toBe(false)
    const elsewhere = authorization('google', { redirect: 'http://127.0.0.1:9/steal' }).url
    await expect(Oidc.signIn(elsewhere, 'ada')).rejects.toThrow('the provider answered 400')
    const declined = await Oidc.signIn(authorization('github').url, 'ada', { decline: true })
    expect(declined.searchParams.get('error')).toBe('access_denied')
  })

  it("logs a visitor in at the API's social login, configured by socialConfig", async () => {
    const db = await memoryDatabase()
    try {
      await Projects.add(db, 'demo')
      const config = Config.parse({
        apiUrl,
        modalOrigin: 'http://127.0.0.1:5174',
        chains: [],
        email: {
          smtp: { host: '127.0.0.1', port: 1025 },
          from: 'login@airlock.localhost',
          secret: 'k'.repeat(32),
        },
        social: Oidc.socialConfig(oidc),
        // The provider answers from this process, which a busy machine may starve for seconds: the API's calls
        // to it get the test's time (vitest's time-out), not the 3 s of the default 10 s request time-out.
        limits: { requestTimeoutMs: 600_000 },
      })
      const { api } = Service.create({ db, config })
      for (const shape of Oidc.shapes) {
        // The modal's own random value, which binds the login to it (login CSRF).
        const binding = randomBytes(24).toString('base64url')
        const started = await api.request(`/v1/auth/social/${shape}/start?projectId=demo&binding=${binding}`)
        // To the provider, not to the modal's page with an error (which this test does not serve).
        const location = new URL(started.headers.get('location') ?? '')
        expect(location.origin, `${shape} started at ${location.href}`).toBe(oidc.issuer)
        const back = await Oidc.signIn(location.href, 'grace')
        const landed = await api.request(`${back.pathname}${back.search}`)
        const handoff = new URL(landed.headers.get('location') ?? '').hash.replace('#handoff=', '')
        const exchanged = await api.request('/v1/auth/social/exchange?projectId=demo', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ handoff, binding }),
        })
        // Facebook never says an address is verified, so its login is a user of its own, without one.
        const { user } = (await exchanged.json()) as { user: { email?: string; provider: string } }
        expect([user.provider, user.email]).toEqual([
          shape,
          shape === 'facebook' ? undefined : `grace@${shape}.test`,
        ])
      }
    } finally {
      await db.close()
    }
  })

  it('says which port is taken', async () => {
    const port = Number(new URL(oidc.issuer).port)
    await expect(Oidc.start({ apiUrl, port })).rejects.toThrow(
      `sign-in provider port ${port} is already in use`,
    )
  })
})
