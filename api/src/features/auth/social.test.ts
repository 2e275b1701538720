import * as S from '@airlock/bridge-protocol/Shape'
import { base64urlnopad } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { configOf, modalOrigin } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Oidc from './internal/oidc.ts'
import * as Users from './Users.ts'

type Provider = 'google' | 'github'

describe.each(databases())('social login on $engine', ({ open }) => {
  let db: Database
  let op: Oidc.Instance
  /**
   * The API with both providers; one where Google's issuer is down and GitHub's user endpoint is; and one
   * without social login.
   */
  let api: Service.App
  let down: Service.App
  let bare: Service.App
  let clock = Date.UTC(2026, 10, 22)
  let serial = 0
  const fresh = (name = 'visitor') => `${name}-${++serial}`
  /** What a modal draws for each login: 16 random bytes, base64url (22 characters). */
  const drawBinding = () => base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(16)))
  /** The binding of "the" modal in these tests, the one that starts their logins. */
  const binding = drawBinding()

  const configWith = (social: Config.Config['social']): Config.Config => ({
    ...configOf(),
    // Never used to mail here: social login needs only its secret.
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret: 's'.repeat(32) },
    social,
    // The provider answers from this process, which a busy machine may starve for seconds: its calls get the
    // test's time (vitest's time-out), not the 3 s of the default 10 s request time-out.
    limits: { requestTimeoutMs: 600_000 },
  })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
    op = await Oidc.start({ apiUrl: configOf().apiUrl, port: 0 })
    const now = () => clock
    const { providers } = Oidc.socialConfig(op)
    api = Service.create({ db, config: configWith({ providers }), now }).api
    const gone = `http://127.0.0.1:${await closedPort()}`
    down = Service.create({
      db,
      config: configWith({
        providers: {
          google: { ...providers.google, issuer: gone },
          github: { ...providers.github, userinfoUrl: `${gone}/user` },
        },
      }),
      now,
    }).api
    bare = Service.create({ db, config: configOf(), now }).api
  })
  afterAll(async () => {
    await op?.stop()
    await db?.close()
  })

  const start = (provider: string, { app = api, query = `?projectId=demo&binding=${binding}` } = {}) =>
    app.request(`/v1/auth/social/${provider}/start${query}`)
  /** Where a redirect goes. */
  const locationOf = (response: Response) => {
    expect(response.status).toBe(302)
    return new URL(response.headers.get('location') ?? '')
  }
  /** Starts a login and goes through the provider's pages; the URL it sends the browser back to. */
  const toCallback = async (
    provider: Provider,
    login: string,
    options?: Oidc.SignInOptions & { binding?: string },
  ) => {
    const query = `?projectId=demo&binding=${options?.binding ?? binding}`
    return Oidc.signIn(locationOf(await start(provider, { query })).href, login, options)
  }
  const callback = (url: URL, provider: string = url.pathname.split('/')[4] ?? '') =>
    api.request(`/v1/auth/social/${provider}/callback${url.search}`)
  /** What the callback tells the modal's page, in its fragment. */
  const toModal = (response: Response) => {
    const location = locationOf(response)
    expect(`${location.origin}${location.pathname}`).toBe(`${modalOrigin}/social.html`)
    expect(response.headers.get('cache-control')).toBe('no-store')
    return Object.fromEntries(new URLSearchParams(location.hash.slice(1)))
  }
  const exchange = async (handoff: unknown, projectId = 'demo', app = api, shown: unknown = binding) => {
    const response = await app.request(`/v1/auth/social/exchange?projectId=${projectId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ handoff, binding: shown }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const handoffOf = async (provider: Provider, login: string) => {
    const fragment = toModal(await callback(await toCallback(provider, login)))
    expect(fragment).toEqual({ handoff: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
    return fragment.handoff ?? ''
  }
  const login = async (provider: Provider, name: string) => {
    const answer = await exchange(await handoffOf(provider, name))
    expect(answer.status).toBe(200)
    const parsed = S.parse(Contract.socialSessionAnswer, answer.body)
    return parsed.ok ? parsed.value : expect.fail(`not a session: ${JSON.stringify(answer.body)}`)
  }
  const me = async (token: string) => {
    const response = await api.request('/v1/auth/me?projectId=demo', {
      headers: { Authorization: `Bearer ${token}` },
    })
    return { status: response.status, body: await response.json() }
  }
  const refused = (status: number, message: string) => ({ status, body: { message } })

  it('logs in through a Google-shaped OpenID provider: PKCE, state, nonce, then a session by handoff', async () => {
    const name = fresh('ada')
    const started = await start('google')
    expect(started.headers.get('cache-control')).toBe('no-store')
    const authorization = locationOf(started)
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${op.issuer}/auth`)
    expect(Object.fromEntries(authorization.searchParams)).toEqual({
      client_id: 'airlock-google',
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:8787/v1/auth/social/google/callback',
      scope: 'openid email profile',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })
    const back = await Oidc.signIn(authorization.href, name)
    expect(back.searchParams.get('state')).toBe(authorization.searchParams.get('state'))
    const { handoff } = toModal(await callback(back))
    const answer = await exchange(handoff)
    expect(answer).toEqual({
      status: 200,
      body: {
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user: { id: expect.any(String), email: `${name}@google.test`, provider: 'google' },
      },
    })
    const { token, user } = answer.body as Contract.SocialSessionAnswer
    expect(await me(token)).toEqual({ status: 200, body: { user: { id: user.id, email: user.email } } })
  })

  it('logs in through a GitHub-shaped OAuth 2.0 provider: the login from /user, the address from /user/emails', async () => {
    const name = fresh('linus')
    const authorization = locationOf(await start('github'))
    expect(authorization.searchParams.get('client_id')).toBe('airlock-github')
    // `user:email` is what opens /user/emails.
    expect(authorization.searchParams.get('scope')).toBe('read:user user:email')
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    // OAuth 2.0 has no ID token to carry a nonce back.
    expect(authorization.searchParams.has('nonce')).toBe(false)
    const { token, user } = await login('github', name)
    expect(user).toEqual({
      id: expect.any(String),
      email: `${name}@github.test`,
      provider: 'github',
      username: name,
    })
    expect((await me(token)).body).toEqual({ user: { id: user.id, email: user.email } })
  })

  it('finds the same user at the next login, with a session of its own; each provider its own person', async () => {
    const name = fresh('grace')
    const first = await login('google', name)
    const second = await login('google', name)
    expect(second.user).toEqual(first.user)
    expect(second.token).not.toBe(first.token)
    expect((await me(first.token)).status).toBe(200)
    expect((await login('github', name)).user.id).not.toBe(first.user.id)
  })

  it('links a first login to the user of the email the provider verified, not to one it did not', async () => {
    const verified = fresh('hedy')
    const emailUser = await Users.findOrCreate(db, `${verified}@google.test`, clock)
    expect((await login('google', verified)).user.id).toBe(emailUser.id)

    const unverified = fresh('unverified')
    const owner = await Users.findOrCreate(db, `${unverified}@google.test`, clock)
    expect(toModal(await callback(await toCallback('google', unverified)))).toEqual({
      error: 'email_not_verified',
    })
    const fresher = fresh('unverified')
    expect(toModal(await callback(await toCallback('github', fresher)))).toEqual({
      error: 'email_not_verified',
    })
    const identities = await db.query('select * from auth_identities where subject in ($1, $2)', [
      unverified,
      fresher,
    ])
    expect(identities).toEqual([])
    expect((await db.query('select id from users where email like $1', [`${fresher}@%`])).length).toBe(0)
    expect(owner.email).toBe(`${unverified}@google.test`)
  })

  it('links a verified address that differs only in case to the same user: one mailbox, one user', async () => {
    // The dev provider's address is `<login>@google.test`, spelled as the login name was typed.
    const name = fresh('Hedy')
    const emailUser = await Users.findOrCreate(db, `${name.toLowerCase()}@google.test`, clock)
    const { user } = await login('google', name)
    expect(user).toEqual({ id: emailUser.id, email: emailUser.email, provider: 'google' })
  })

  it("refuses a callback whose state is unknown, used or another provider's with 400 'Invalid state'", async () => {
    const invalid = refused(400, 'Invalid state')
    const answer = async (response: Response) => ({ status: response.status, body: await response.json() })
    expect(await answer(await api.request('/v1/auth/social/google/callback?code=x&state=nope'))).toEqual(
      invalid,
    )
    expect(await answer(await api.request('/v1/auth/social/google/callback?code=x'))).toEqual(invalid)
    const back = await toCallback('google', fresh())
    expect(toModal(await callback(back)).handoff).toBeDefined()
    expect(await answer(await callback(back))).toEqual(invalid)
    const other = await toCallback('google', fresh())
    expect(await answer(await callback(other, 'github'))).toEqual(invalid)
    // Sent to the wrong provider's route, the state is spent for the right one too.
    expect(await answer(await callback(other, 'google'))).toEqual(invalid)
  })

  it('lets a state wait 10 minutes for its callback, no longer', async () => {
    const back = await toCallback('google', fresh())
    clock += 10 * 60_000
    expect((await callback(back)).status).toBe(400)
    const inTime = await toCallback('github', fresh())
    clock += 10 * 60_000 - 1
    expect(toModal(await callback(inTime)).handoff).toBeDefined()
  })

  it('sends a tampered code back to the modal as #error=provider_error, and spends the state', async () => {
    const back = await toCallback('google', fresh())
    const tampered = new URL(back)
    const code = back.searchParams.get('code') ?? ''
    tampered.searchParams.set('code', `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`)
    expect(toModal(await callback(tampered))).toEqual({ error: 'provider_error' })
    expect((await callback(back)).status).toBe(400)
  })

  it('checks the PKCE verifier and the nonce it kept', async () => {
    for (const column of ['code_verifier', 'nonce']) {
      const back = await toCallback('google', fresh())
      await db.query(`update auth_social_states set ${column} = $2 where state = $1`, [
        back.searchParams.get('state'),
        'x'.repeat(43),
      ])
      expect(toModal(await callback(back))).toEqual({ error: 'provider_error' })
    }
  })

  it('tells the modal #error=access_denied when the visitor declines at the provider', async () => {
    const back = await toCallback('github', fresh(), { decline: true })
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(toModal(await callback(back))).toEqual({ error: 'access_denied' })
  })

  it('tells the modal #error=provider_error when the provider or its user endpoint cannot be reached', async () => {
    expect(toModal(await start('google', { app: down }))).toEqual({ error: 'provider_error' })
    // GitHub's user is read from its user endpoint alone: without it, the login cannot finish.
    const back = await Oidc.signIn(locationOf(await start('github', { app: down })).href, fresh())
    const finished = await down.request(`/v1/auth/social/github/callback${back.search}`)
    expect(toModal(finished)).toEqual({ error: 'provider_error' })
  })

  it("trades a handoff once, in its own project, within 60 s; else 401 'Invalid handoff'", async () => {
    const invalid = refused(401, 'Invalid handoff')
    const handoff = await handoffOf('google', fresh())
    expect(await exchange(handoff, 'other')).toEqual(invalid)
    expect((await exchange(handoff)).status).toBe(200)
    expect(await exchange(handoff)).toEqual(invalid)
    expect(await exchange('A'.repeat(43))).toEqual(invalid)
    for (const malformed of ['short', 42, undefined, `${handoff}x`])
      expect(await exchange(malformed)).toEqual(refused(400, 'Invalid handoff'))

    const late = await handoffOf('github', fresh())
    clock += 60_000
    expect(await exchange(late)).toEqual(invalid)
    const inTime = await handoffOf('github', fresh())
    clock += 60_000 - 1
    expect((await exchange(inTime)).status).toBe(200)
  })

  describe('the binding to the modal that began the login (login CSRF)', () => {
    it("opens nothing for a victim's modal that lands on an attacker's callback, and spends the handoff", async () => {
      // The attacker begins a login from a modal of their own and signs in at the provider as themselves…
      const attackers = drawBinding()
      const back = await toCallback('google', fresh('mallory'), { binding: attackers })
      // …then gets the victim's browser to open the callback: it lands on the victim's modal page.
      const { handoff } = toModal(await callback(back))
      expect(handoff).toMatch(/^[A-Za-z0-9_-]{43}$/)
      // The victim's modal shows its own binding: no session, for anyone, from then on.
      const invalid = refused(401, 'Invalid handoff')
      expect(await exchange(handoff, 'demo', api, binding)).toEqual(invalid)
      expect(await exchange(handoff, 'demo', api, attackers)).toEqual(invalid)
      expect(
        await db.query(
          'select 1 from auth_sessions s join users u on u.id = s.user_id where u.email like $1',
          ['mallory-%'],
        ),
      ).toEqual([])
    })

    it('opens the session for the modal that began the login, with the binding it gave', async () => {
      const own = drawBinding()
      const name = fresh('ada')
      const { handoff } = toModal(await callback(await toCallback('github', name, { binding: own })))
      const answer = await exchange(handoff, 'demo', api, own)
      expect(answer.status).toBe(200)
      expect((answer.body as Contract.SocialSessionAnswer).user.email).toBe(`${name}@github.test`)
    })

    it("needs a binding of 22 to 64 base64url characters to start and to exchange: else 400 'Invalid binding'", async () => {
      const invalid = refused(400, 'Invalid binding')
      const answer = async (response: Response) => ({ status: response.status, body: await response.json() })
      const malformed = ['', 'a'.repeat(21), 'a'.repeat(65), `${'a'.repeat(21)}=`, `${'a'.repeat(21)}+`]
      expect(await answer(await start('google', { query: '?projectId=demo' }))).toEqual(invalid)
      for (const bad of malformed)
        expect(
          await answer(
            await start('google', { query: `?projectId=demo&binding=${encodeURIComponent(bad)}` }),
          ),
        ).toEqual(invalid)
      for (const good of ['a'.repeat(22), `${'-_'.repeat(32)}`])
        expect((await start('google', { query: `?projectId=demo&binding=${good}` })).status).toBe(302)
      const handoff = await handoffOf('google', fresh())
      for (const bad of [...malformed, null, 42])
        expect(await exchange(handoff, 'demo', api, bad)).toEqual(invalid)
      const without = await api.request('/v1/auth/social/exchange?projectId=demo', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ handoff }),
      })
      expect(await answer(without)).toEqual(invalid)
      // A malformed binding is refused before the handoff is looked at: the right one still works.
      expect((await exchange(handoff)).status).toBe(200)
    })
  })

  it("answers 404 'Unknown social provider' for a provider the configuration does not name", async () => {
    const unknown = refused(404, 'Unknown social provider')
    const answer = async (response: Response) => ({ status: response.status, body: await response.json() })
    for (const provider of ['myspace', 'farcaster', '__proto__'])
      expect(await answer(await start(provider))).toEqual(unknown)
    // The product's own providers (docs/behaviour.md §1), where the configuration leaves them out (`down` names only Google and GitHub).
    for (const provider of ['facebook', 'x'])
      expect(await answer(await start(provider, { app: down }))).toEqual(unknown)
    expect(await answer(await down.request('/v1/auth/social/apple/callback?code=x&state=y'))).toEqual(unknown)
    expect(await answer(await start('google', { app: bare }))).toEqual(unknown)
    expect(await exchange('A'.repeat(43), 'demo', bare)).toEqual(
      refused(404, 'Social login is not configured'),
    )
  })

  it('needs a configured project to start: 400 without projectId, 403 for an unknown one', async () => {
    const missing = await start('google', { query: '' })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ message: expect.stringContaining('projectId') })
    expect((await start('google', { query: `?projectId=nope&binding=${binding}` })).status).toBe(403)
    expect((await exchange('A'.repeat(43), 'nope')).status).toBe(403)
  })

  it('never stores a handoff code, a binding or a session token as such', async () => {
    const back = await toCallback('google', fresh())
    expect(JSON.stringify(await db.query('select * from auth_social_states'))).not.toContain(binding)
    const handoff = toModal(await callback(back)).handoff ?? ''
    const stored = JSON.stringify(await db.query('select * from auth_social_handoffs'))
    expect(stored).not.toContain(handoff)
    expect(stored).not.toContain(binding)
    const { token } = (await exchange(handoff)).body as Contract.SocialSessionAnswer
    expect(JSON.stringify(await db.query('select * from auth_sessions'))).not.toContain(token)
  })
})
