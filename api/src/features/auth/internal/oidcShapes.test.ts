import { createHash, randomBytes } from 'node:crypto'
import { get } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Oidc from './oidc.ts'
import { clientAuth, githubId, type Shape } from './oidcShapes.ts'

const apiUrl = 'http://127.0.0.1:8787'
let op: Oidc.Instance

beforeAll(async () => {
  op = await Oidc.start({ apiUrl, port: 0 })
})
afterAll(() => op?.stop())

/**
 * The token response of a login as `login` at `shape`'s client, asking `scope`, trading the code as `auth`
 * and asking for `accept` (JSON, as openid-client does; `*\/*` is what a bare fetch asks).
 */
async function tokenResponse(
  shape: Shape,
  login: string,
  scope: string,
  { auth = clientAuth[shape], accept = 'application/json' } = {},
) {
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
    headers: {
      Accept: accept,
      ...(basic ? { Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` } : {}),
    },
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
  it("answers GitHub's /user: a numeric id, the login, and no public email", async () => {
    const token = await accessToken('github', 'linus', 'read:user user:email')
    expect(await ask('/github/user', token)).toEqual({
      status: 200,
      body: {
        login: 'linus',
        id: githubId('linus'),
        name: 'linus',
        avatar_url: 'https://github.test/linus.png',
        type: 'User',
        email: null,
      },
    })
    expect(Number.isSafeInteger(githubId('linus'))).toBe(true)
    expect(githubId('linus')).not.toBe(githubId('linus2'))
  })

  it("answers GitHub's /user/emails: the primary after an older address, verified by the login name", async () => {
    const emails = async (login: string) =>
      (await ask('/github/user/emails', await accessToken('github', login, 'read:user user:email'))).body
    expect(await emails('linus')).toEqual([
      { email: 'linus@previous.github.test', primary: false, verified: true, visibility: null },
      { email: 'linus@github.test', primary: true, verified: true, visibility: 'private' },
    ])
    expect(await emails('unverified-linus')).toEqual([
      expect.objectContaining({ primary: false, verified: false }),
      expect.objectContaining({ primary: true, verified: false }),
    ])
    expect(await emails('new-primary-linus')).toEqual([
      expect.objectContaining({ email: 'new-primary-linus@previous.github.test', verified: true }),
      expect.objectContaining({ email: 'new-primary-linus@github.test', primary: true, verified: false }),
    ])
  })

  it('answers 404 at /user/emails without the user:email scope, as GitHub does; /user still answers', async () => {
    const token = await accessToken('github', 'linus', 'read:user')
    expect(await ask('/github/user/emails', token)).toEqual({ status: 404, body: { message: 'Not Found' } })
    expect((await ask('/github/user', token)).status).toBe(200)
  })

  it("refuses a request to GitHub's API without a User-Agent (403), as GitHub does", async () => {
    const token = await accessToken('github', 'linus', 'read:user user:email')
    // fetch always sends a User-Agent; node:http sends none unless told.
    const status = (headers: Record<string, string>) =>
      new Promise<number | undefined>((resolve, reject) =>
        get(`${op.issuer}/shapes/github/user`, { headers }, (response) => {
          response.resume()
          resolve(response.statusCode)
        }).on('error', reject),
      )
    expect(await status({ Authorization: `Bearer ${token}` })).toBe(403)
    expect(await status({ Authorization: `Bearer ${token}`, 'User-Agent': 'airlock-test' })).toBe(200)
  })

  it("answers GitHub's token request as a form unless asked for JSON, as GitHub does", async () => {
    const form = await tokenResponse('github', 'linus', 'read:user', { accept: '*/*' })
    expect(form.headers.get('content-type')).toMatch(/^application\/x-www-form-urlencoded/)
    expect(new URLSearchParams(await form.text()).get('access_token')).toMatch(/^\S{20,}$/)
    const json = await tokenResponse('github', 'linus', 'read:user')
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    // Other providers answer JSON either way.
    const discord = await tokenResponse('discord', 'nelly', 'identify', { accept: '*/*' })
    expect(discord.headers.get('content-type')).toMatch(/^application\/json/)
  })

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
    const posted = await tokenResponse('x', 'jack', 'users.read', { auth: 'client_secret_post' })
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
    for (const path of ['/discord/nothing', '/google/me', '/myspace/me', '/github/user/keys'])
      expect((await ask(path, discord)).status).toBe(404)
  })
})
