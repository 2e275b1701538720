import * as S from '@airlock/bridge-protocol/Shape'
import { base64urlnopad } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { configOf, modalOrigin } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Oidc from './internal/oidc.ts'
import { claimsOf, githubId } from './internal/oidcShapes.ts'
import { githubEmailsUrl, idTokenProfile, presets } from './Presets.ts'
import * as Users from './Users.ts'

const userinfo = 'https://provider.test/me'

/** A preset's reading of one user endpoint that answers `answer`. */
const read = (provider: Contract.SocialProvider, answer: unknown) =>
  presets[provider].user(async () => answer, new URL(userinfo))

describe('the presets: how each provider writes a person', () => {
  it("counts Apple's string email_verified: 'true' is verified, 'false' is not", () => {
    const claims = { sub: '001.apple', email: 'Ada@Privaterelay.Appleid.com' }
    expect(idTokenProfile({ ...claims, email_verified: 'true' })).toEqual({
      subject: '001.apple',
      email: 'ada@privaterelay.appleid.com',
      emailVerified: true,
      username: undefined,
    })
    expect(idTokenProfile({ ...claims, email_verified: 'false' }).emailVerified).toBe(false)
    expect(() => idTokenProfile({ ...claims, email_verified: 'yes' })).toThrow('email_verified')
  })

  it("reads Discord's verified flag, and no address where it answers null", async () => {
    const user = { id: '80351110224678912', username: 'nelly', email: 'nelly@discord.test' }
    expect(await read('discord', { ...user, verified: true })).toEqual({
      subject: '80351110224678912',
      email: 'nelly@discord.test',
      emailVerified: true,
      username: 'nelly',
    })
    expect((await read('discord', { ...user, verified: false })).emailVerified).toBe(false)
    expect(await read('discord', { ...user, email: null })).toMatchObject({
      email: undefined,
      emailVerified: false,
    })
  })

  it("never takes Facebook's answered address as confirmed: Facebook does not say it is", async () => {
    expect(await read('facebook', { id: '10', name: 'Ada L', email: 'ada@fb.test' })).toEqual({
      subject: '10',
      email: 'ada@fb.test',
      emailVerified: false,
      username: undefined,
    })
    expect((await read('facebook', { id: '10', name: 'Ada L' })).emailVerified).toBe(false)
    expect(
      Object.entries(presets)
        .filter(([, preset]) => !preset.vouches)
        .map(([id]) => id),
    ).toEqual(['facebook'])
  })

  it("takes X's answered address as confirmed, and none as none", async () => {
    const data = { id: '2244994945', username: 'ada' }
    expect(await read('x', { data: { ...data, confirmed_email: 'ada@x.test' } })).toEqual({
      subject: '2244994945',
      email: 'ada@x.test',
      emailVerified: true,
      username: 'ada',
    })
    expect(await read('x', { data })).toMatchObject({ email: undefined, emailVerified: false })
  })

  it('refuses an answer of another shape: an error, never a person', async () => {
    await expect(read('x', { errors: [{ title: 'Unauthorized' }] })).rejects.toThrow(`${userinfo}: data`)
    await expect(read('discord', { username: 'nelly' })).rejects.toThrow(`${userinfo}: id`)
    await expect(read('facebook', [])).rejects.toThrow(userinfo)
  })

  describe('GitHub: /user for who, /user/emails for the verified address', () => {
    const user = { login: 'octocat', id: 583231, email: 'octo@public.test', name: 'The Octocat' }
    const address = (email: string, primary: boolean, verified: boolean) => ({
      email,
      primary,
      verified,
      visibility: primary ? 'private' : null,
    })
    /** The preset's reading when `/user` answers `user` and `/user/emails` answers `emails`. */
    const github = async (emails: unknown, answer: unknown = user) => {
      const asked: string[] = []
      const profile = await presets.github.user(async (url) => {
        asked.push(url.href)
        if (url.href === 'https://api.github.com/user') return answer
        if (url.href === 'https://api.github.com/user/emails?per_page=100') return emails
        throw new Error(`${url} answered 404`)
      }, new URL('https://api.github.com/user'))
      expect(asked.sort()).toEqual([
        'https://api.github.com/user',
        'https://api.github.com/user/emails?per_page=100',
      ])
      return profile
    }

    it('takes the primary address when verified, even listed after another verified one', async () => {
      const emails = [address('old@example.test', false, true), address('Octo@Example.test', true, true)]
      expect(await github(emails)).toEqual({
        subject: '583231',
        email: 'octo@example.test',
        emailVerified: true,
        username: 'octocat',
      })
    })

    it('takes a verified address that is not the primary when the primary is not verified', async () => {
      const emails = [
        address('new@example.test', true, false),
        address('unproven@example.test', false, false),
        address('old@example.test', false, true),
      ]
      expect(await github(emails)).toMatchObject({ email: 'old@example.test', emailVerified: true })
    })

    it("vouches for no address when none is verified, whatever /user's public email says", async () => {
      const emails = [address('octo@public.test', true, false), address('old@example.test', false, false)]
      expect(await github(emails)).toMatchObject({ email: undefined, emailVerified: false })
      expect(await github([])).toMatchObject({ email: undefined, emailVerified: false })
      // A verified entry that is no address is passed over, not taken.
      const odd = [address('not an address', true, true), address('old@example.test', false, true)]
      expect(await github(odd)).toMatchObject({ email: 'old@example.test', emailVerified: true })
    })

    it('refuses answers of another shape: a string or fractional id, no login, emails that are no list', async () => {
      const emails = [address('octo@example.test', true, true)]
      await expect(github(emails, { ...user, id: '583231' })).rejects.toThrow(
        'https://api.github.com/user: id',
      )
      await expect(github(emails, { ...user, id: 1.5 })).rejects.toThrow('id: expected an integer')
      await expect(github(emails, { id: 583231 })).rejects.toThrow('login')
      await expect(github({ message: 'Not Found' })).rejects.toThrow('user/emails?per_page=100')
    })

    it('asks for the addresses beside the configured /user, at GitHub or an Enterprise server', () => {
      const emails = (url: string) => githubEmailsUrl(new URL(url)).href
      expect(emails('https://api.github.com/user')).toBe('https://api.github.com/user/emails?per_page=100')
      expect(emails('https://git.example.com/api/v3/user/')).toBe(
        'https://git.example.com/api/v3/user/emails?per_page=100',
      )
    })
  })

  it('asks Apple for a form post exactly when the scope asks for the email or the name', () => {
    expect(presets.apple.formPost('openid email name')).toBe(true)
    expect(presets.apple.formPost('openid name')).toBe(true)
    expect(presets.apple.formPost('openid')).toBe(false)
    expect(presets.apple.formPost('openid emails')).toBe(false)
    expect(presets.google.formPost('openid email profile')).toBe(false)
  })

  it("has the development provider write Apple's email_verified as a string, as Apple does", () => {
    expect(claimsOf('ada', 'apple')).toEqual({ sub: 'ada', email: 'ada@apple.test', email_verified: 'true' })
    expect(claimsOf('unverified-ada', 'apple')).toMatchObject({ email_verified: 'false' })
  })
})

describe.each(databases())('social login in each provider shape on $engine', ({ open }) => {
  let db: Database
  let op: Oidc.Instance
  /** The API with every provider; one whose X client lacks the elevated `users.email` scope. */
  let api: Service.App
  let plainX: Service.App
  let serial = 0
  const fresh = (name = 'visitor') => `${name}-${++serial}`
  const binding = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(16)))

  const configWith = (social: Config.Config['social']): Config.Config => ({
    ...configOf(),
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret: 's'.repeat(32) },
    social,
  })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    op = await Oidc.start({ apiUrl: configOf().apiUrl, port: 0 })
    const { providers } = Oidc.socialConfig(op)
    api = Service.create({ db, config: configWith({ providers }) }).api
    const x = { ...providers.x, scope: 'tweet.read users.read' }
    plainX = Service.create({ db, config: configWith({ providers: { x } }) }).api
  })
  afterAll(async () => {
    await op?.stop()
    await db?.close()
  })

  const locationOf = (response: Response) => {
    expect(response.status).toBe(302)
    return new URL(response.headers.get('location') ?? '')
  }
  const authorize = async (provider: string, app = api) =>
    locationOf(await app.request(`/v1/auth/social/${provider}/start?projectId=demo&binding=${binding}`))
  /** The browser's return to the callback: the redirect's GET, or the posted form of a form_post answer. */
  const land = (back: Oidc.Callback, app = api, body = back.searchParams.toString()) =>
    back.method === 'GET'
      ? app.request(`${back.pathname}${back.search}`)
      : app.request(back.pathname, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
        })
  const toModal = (response: Response) => {
    const location = locationOf(response)
    expect(`${location.origin}${location.pathname}`).toBe(`${modalOrigin}/social.html`)
    return Object.fromEntries(new URLSearchParams(location.hash.slice(1)))
  }
  const session = async (handoff: string | undefined) => {
    const response = await api.request('/v1/auth/social/exchange?projectId=demo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ handoff, binding }),
    })
    const parsed = S.parse(Contract.socialSessionAnswer, await response.json())
    if (!parsed.ok) return expect.fail(`not a session: ${response.status} ${parsed.message}`)
    const me = await api.request('/v1/auth/me?projectId=demo', {
      headers: { Authorization: `Bearer ${parsed.value.token}` },
    })
    const { id, email, provider, username } = parsed.value.user
    // A user with an email is that email's; one without is the provider's person.
    expect(await me.json()).toEqual({
      user: email ? { id, email } : { id, provider, ...(username ? { username } : {}) },
    })
    return parsed.value.user
  }
  const invalid = async (response: Response) => {
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ message: 'Invalid state' })
  }

  it.each([
    // GitHub's primary address, listed after a verified older one: read from /user/emails, not taken first.
    { provider: 'github', scope: 'read:user user:email', username: true },
    { provider: 'discord', scope: 'identify email', username: true },
    // Facebook vouches for no address: its person is a user of their own, without email.
    { provider: 'facebook', scope: 'email public_profile', username: false, email: false },
    // X's dev client takes its secret only as HTTP Basic, as X does: the login passes only if the API sends it so.
    { provider: 'x', scope: 'tweet.read users.read users.email', username: true },
  ] as const)(
    'logs in through a $provider-shaped OAuth 2.0 provider, reading its own user JSON',
    async ({ provider, scope, username, ...rest }) => {
      const name = fresh('ada')
      const authorization = await authorize(provider)
      // No discovery document, as at the real one: the endpoint the configuration names.
      expect(`${authorization.origin}${authorization.pathname}`).toBe(`${op.issuer}/auth`)
      expect(Object.fromEntries(authorization.searchParams)).toEqual({
        client_id: `airlock-${provider}`,
        response_type: 'code',
        redirect_uri: `http://127.0.0.1:8787/v1/auth/social/${provider}/callback`,
        scope,
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
        state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      })
      const back = await Oidc.signIn(authorization.href, name)
      expect(back.method).toBe('GET')
      const user = await session(toModal(await land(back)).handoff)
      expect(user).toEqual({
        id: expect.any(String),
        ...('email' in rest ? {} : { email: `${name}@${provider}.test` }),
        provider,
        ...(username ? { username: name } : {}),
      })
    },
  )

  it("never joins a Facebook person to the email user of the address Facebook lists, nor that user's later login to them", async () => {
    const name = fresh('victim')
    const address = `${name}@facebook.test`
    // The address's owner logged in by code before; someone typed that address at Facebook.
    const owner = await Users.findOrCreate(db, address, Date.now())
    const back = await Oidc.signIn((await authorize('facebook')).href, name)
    const user = await session(toModal(await land(back)).handoff)
    expect(user).toEqual({ id: expect.any(String), provider: 'facebook' })
    expect(user.id).not.toBe(owner.id)
    // The same Facebook person again is the same user; the owner's email login is still the owner's.
    const again = await session(
      toModal(await land(await Oidc.signIn((await authorize('facebook')).href, name))).handoff,
    )
    expect(again.id).toBe(user.id)
    expect((await Users.findOrCreate(db, address, Date.now())).id).toBe(owner.id)
  })

  it.each(['github', 'discord', 'x'])(
    'refuses a %s login whose address is not confirmed',
    async (provider) => {
      const back = await Oidc.signIn((await authorize(provider)).href, fresh('unverified'))
      expect(toModal(await land(back))).toEqual({ error: 'email_not_verified' })
    },
  )

  it('logs a GitHub person in by a verified address that is not the primary, when the primary is not verified', async () => {
    const name = fresh('new-primary')
    const back = await Oidc.signIn((await authorize('github')).href, name)
    const user = await session(toModal(await land(back)).handoff)
    expect(user).toEqual({
      id: expect.any(String),
      email: `${name}@previous.github.test`,
      provider: 'github',
      username: name,
    })
    // GitHub's person is its numeric id, whatever their login or addresses become.
    const [identity] = await db.query<{ subject: string }>(
      "select subject from auth_identities where provider = 'github' and username = $1",
      [name],
    )
    expect(identity?.subject).toBe(String(githubId(name)))
  })

  it('refuses an X login without an address (no users.email scope) as email_not_verified, linking nothing', async () => {
    const name = fresh('grace')
    const authorization = await authorize('x', plainX)
    expect(authorization.searchParams.get('scope')).toBe('tweet.read users.read')
    const back = await Oidc.signIn(authorization.href, name)
    expect(toModal(await land(back, plainX))).toEqual({ error: 'email_not_verified' })
    expect(await db.query('select 1 from auth_identities where subject = $1', [name])).toEqual([])
  })

  it('logs in through an Apple-shaped provider: OpenID, answered by a posted form, email_verified "true"', async () => {
    const name = fresh('tim')
    const authorization = await authorize('apple')
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: 'airlock-apple',
      scope: 'openid email name',
      response_mode: 'form_post',
      code_challenge_method: 'S256',
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })
    const back = await Oidc.signIn(authorization.href, name)
    expect(back.method).toBe('POST')
    expect(back.pathname).toBe('/v1/auth/social/apple/callback')
    expect(back.searchParams.get('state')).toBe(authorization.searchParams.get('state'))
    const landed = await land(back)
    expect(landed.headers.get('cache-control')).toBe('no-store')
    const user = await session(toModal(landed).handoff)
    expect(user).toEqual({ id: expect.any(String), email: `${name}@apple.test`, provider: 'apple' })
    // The string "false" is not verified.
    const unverified = await Oidc.signIn((await authorize('apple')).href, fresh('unverified'))
    expect(toModal(await land(unverified))).toEqual({ error: 'email_not_verified' })
  })

  it("refuses a posted callback whose state is tampered, absent from the body, or used: 400 'Invalid state'", async () => {
    const back = await Oidc.signIn((await authorize('apple')).href, fresh())
    const tampered = new URLSearchParams(back.searchParams)
    const state = tampered.get('state') ?? ''
    tampered.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`)
    await invalid(await land(back, api, tampered.toString()))
    // The answer in the query of a POST, or as JSON, is no answer: only a form body is read.
    await invalid(await api.request(`${back.pathname}${back.search}`, { method: 'POST' }))
    await invalid(
      await api.request(back.pathname, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(Object.fromEntries(back.searchParams)),
      }),
    )
    // None of these took the state: the real answer still works, once.
    expect(toModal(await land(back)).handoff).toMatch(/^[A-Za-z0-9_-]{43}$/)
    await invalid(await land(back))
  })

  it('checks the nonce and the PKCE verifier on the posted callback as on any other', async () => {
    for (const column of ['nonce', 'code_verifier']) {
      const back = await Oidc.signIn((await authorize('apple')).href, fresh())
      await db.query(`update auth_social_states set ${column} = $2 where state = $1`, [
        back.searchParams.get('state'),
        'x'.repeat(43),
      ])
      expect(toModal(await land(back))).toEqual({ error: 'provider_error' })
    }
  })

  it('tells the modal #error=access_denied when the visitor declines at an Apple-shaped provider', async () => {
    const back = await Oidc.signIn((await authorize('apple')).href, fresh(), { decline: true })
    expect(back.method).toBe('POST')
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(toModal(await land(back))).toEqual({ error: 'access_denied' })
  })
})
