import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Oidc from './oidc.ts'
import { clientAuth, type Shape } from './oidcShapes.ts'

const apiUrl = 'http://127.0.0.1:8787'
let op: Oidc.Instance

beforeAll(async () => {
  op = await Oidc.start({ apiUrl, port: 0 })
})
afterAll(() => op?.stop())

/** The token response of a login as `login` at `shape`'s client, asking `scope`, trading the code as `auth`. */
async function tokenResponse(shape: Shape, login: string, scope: string, auth = clientAuth[shape]) {
  const verifier = randomBytes(32).toString('base64url')
  const redirect = `${apiUrl}/v1/auth/social/${shape}/callback`
  const { clientId, clientSecret } = op.clients[shape]
  const url = new URL(`${op.issuer}/auth`)
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirect,
    scope,
    state: 'state-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString()
  const back = await Oidc.signIn(url.href, login)
  const basic = auth === 'client_secret_basic'
  return fetch(`${op.issuer}/token`, {
    method: 'POST',
    headers: basic ? { Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` } : {},
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: redirect,
      code_verifier: verifier,
      ...(basic ? {} : { client_id: clientId, client_secret: clientSecret }),
    }),
  })
}

async function accessToken(shape: Shape, login: string, scope: string) {
  const response = await tokenResponse(shape, login, scope)
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

/** What a user endpoint under `/shapes/` answers a token. */
async function ask(path: string, token?: string) {
  const response = await fetch(`${op.issuer}/shapes${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  return { status: response.status, body: await response.json() }
}

describe('the development provider in each provider shape', () => {
  it("answers Discord's /users/@me, with the email and its flag only under the email scope", async () => {
    const full = await accessToken('discord', 'nelly', 'identify email')
    expect(await ask('/discord/users/@me', full)).toEqual({
      status: 200,
      body: {
        id: 'nelly',
        username: 'nelly',
        global_name: 'nelly',
        email: 'nelly@discord.test',
        verified: true,
      },
    })
    const bare = await accessToken('discord', 'nelly', 'identify')
    expect((await ask('/discord/users/@me', bare)).body).toEqual({
      id: 'nelly',
      username: 'nelly',
      global_name: 'nelly',
    })
    const unverified = await accessToken('discord', 'unverified-nelly', 'identify email')
    expect((await ask('/discord/users/@me', unverified)).body).toMatchObject({ verified: false })
  })

  it("answers Facebook's /me with the fields asked for, the email only when confirmed", async () => {
    const token = await accessToken('facebook', 'mark', 'email public_profile')
    expect((await ask('/facebook/me', token)).body).toEqual({ id: 'mark', name: 'mark' })
    expect((await ask('/facebook/me?fields=id,name,email', token)).body).toEqual({
      id: 'mark',
      name: 'mark',
      email: 'mark@facebook.test',
    })
    const unconfirmed = await accessToken('facebook', 'unverified-mark', 'email public_profile')
    expect((await ask('/facebook/me?fields=id,email', unconfirmed)).body).toEqual({ id: 'unverified-mark' })
  })

  it("answers X's /2/users/me, confirmed_email only when asked for and granted users.email", async () => {
    const token = await accessToken('x', 'jack', 'tweet.read users.read users.email')
    const user = { id: 'jack', name: 'jack', username: 'jack' }
    expect((await ask('/x/2/users/me', token)).body).toEqual({ data: user })
    expect((await ask('/x/2/users/me?user.fields=confirmed_email', token)).body).toEqual({
      data: { ...user, confirmed_email: 'jack@x.test' },
    })
    const plain = await accessToken('x', 'jack', 'tweet.read users.read')
    expect((await ask('/x/2/users/me?user.fields=confirmed_email', plain)).body).toEqual({ data: user })
  })

  it("takes X's client secret only as HTTP Basic, as X does", async () => {
    const posted = await tokenResponse('x', 'jack', 'users.read', 'client_secret_post')
    expect(posted.status).toBe(401)
    expect(await posted.json()).toMatchObject({ error: 'invalid_client' })
  })

  it("answers 401 to no token, an unknown one, or another provider's; 404 off the user endpoints", async () => {
    const discord = await accessToken('discord', 'nelly', 'identify email')
    const x = await accessToken('x', 'jack', 'users.read users.email')
    const unauthorized = { status: 401, body: { message: '401: Unauthorized' } }
    expect(await ask('/discord/users/@me')).toEqual(unauthorized)
    expect(await ask('/discord/users/@me', 'not-a-token')).toEqual(unauthorized)
    expect(await ask('/x/2/users/me', discord)).toEqual(unauthorized)
    expect(await ask('/discord/users/@me', x)).toEqual(unauthorized)
    expect((await ask('/facebook/me', discord)).status).toBe(401)
    for (const path of ['/discord/nothing', '/google/me', '/myspace/me'])
      expect((await ask(path, discord)).status).toBe(404)
  })
})
