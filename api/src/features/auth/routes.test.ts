import * as S from '@airlock/bridge-protocol/Shape'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { configOf, modalOrigin, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Catcher from './internal/maildev.ts'

type Answer = { status: number; body: Record<string, unknown>; retryAfter: string | null }

describe.each(databases())('email login routes on $engine', ({ open }) => {
  let db: Database
  let catcher: Catcher.Catcher
  /** The API with a working mail server, one whose server is down, and one without email login. */
  let api: Service.App
  let down: Service.App
  let bare: Service.App
  let clock = Date.UTC(2026, 10, 22)
  let serial = 0
  const fresh = () => `Visitor${++serial}@Mail.Example`
  const lower = (email: string) => email.toLowerCase()

  const emailConfig = (
    port: number,
    limits?: NonNullable<Config.Config['email']>['limits'],
  ): Config.Config => ({
    ...configOf(),
    // The client is the X-Forwarded-For a test writes, as behind one proxy of ours.
    limits: { trustedProxies: 1 },
    email: {
      smtp: { host: '127.0.0.1', port, requireTLS: false },
      from: 'Airlock <login@airlock.example>',
      secret: 'a secret of at least thirty-two characters',
      ...(limits ? { limits } : {}),
    },
  })
  /** A client address of its own, unless a test passes one on: what no other request counts against. */
  let clients = 0
  const host = () => `10.0.${Math.floor(++clients / 250)}.${clients % 250}`

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
    catcher = await Catcher.start()
    const now = () => clock
    api = Service.create({ db, config: emailConfig(catcher.port), now }).api
    down = Service.create({ db, config: emailConfig(await closedPort()), now }).api
    bare = Service.create({ db, config: configOf(), now }).api
  })
  afterAll(async () => {
    await catcher?.stop()
    await db?.close()
  })

  const call = async (
    path: string,
    body?: unknown,
    {
      app = api,
      token,
      projectId = 'demo',
      client = host(),
    }: { app?: Service.App; token?: string; projectId?: string; client?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Forwarded-For': client }
    if (token) headers.Authorization = `Bearer ${token}`
    const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }
    const response = await app.request(`${path}?projectId=${projectId}&st=airlock&sv=0.1.0`, init)
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      retryAfter: response.headers.get('Retry-After'),
    }
  }
  const post = (path: string, body: unknown = {}, options?: Parameters<typeof call>[2]) =>
    call(path, body, options)
  const sent = { status: 200, body: { sent: true, retryAfter: 30 }, retryAfter: null }
  const refused = (status: number, message: string) => ({ status, body: { message }, retryAfter: null })

  /** Asks for a login code and reads it from the `count`-th email the address got. */
  const askCode = async (email: string, count = 1) => {
    expect(await post('/v1/auth/email', { email })).toEqual(sent)
    return Catcher.codeOf(await catcher.nth(lower(email), count))
  }
  const login = async (email: string, count = 1) => {
    const answer = await post('/v1/auth/email/verify', { email, code: await askCode(email, count) })
    expect(answer.status).toBe(200)
    return S.parse(Contract.emailSessionAnswer, answer.body).ok
      ? (answer.body as Contract.EmailSessionAnswer)
      : expect.fail(`not a session: ${JSON.stringify(answer.body)}`)
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

  it('mails a code that logs in, and the session knows its user', async () => {
    const email = fresh()
    const code = await askCode(email)
    const caught = await catcher.nth(lower(email), 1)
    expect(caught.from).toEqual([{ address: 'login@airlock.example', name: 'Airlock' }])
    expect(caught.subject).toBe('Your login code')
    expect(caught.text).toContain(`Your login code is ${code}. It is valid for 10 minutes.`)
    const answer = await post('/v1/auth/email/verify', { email, code })
    expect(answer).toEqual({
      status: 200,
      body: {
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user: { id: expect.any(String), email: lower(email) },
      },
      retryAfter: null,
    })
    const { token, user } = answer.body as Contract.EmailSessionAnswer
    expect(S.parse(Contract.emailSessionAnswer, answer.body).ok).toBe(true)
    const me = await call('/v1/auth/me', undefined, { token })
    expect(me).toEqual({ status: 200, body: { user }, retryAfter: null })
    expect(S.parse(Contract.emailUserAnswer, me.body).ok).toBe(true)
  })

  it('logs the same user in again, with a session of its own', async () => {
    const email = fresh()
    const first = await login(email)
    clock += 30_000
    // The address spelled otherwise, local part included, is the same mailbox.
    const second = await login(email.replace('Visitor', 'VISITOR').replace('Mail.Example', 'MAIL.EXAMPLE'), 2)
    expect(second.user).toEqual(first.user)
    expect(second.token).not.toBe(first.token)
    for (const token of [first.token, second.token])
      expect((await call('/v1/auth/me', undefined, { token })).body).toEqual({ user: first.user })
  })

  it("refuses a wrong code, and a used one, with 401 'Invalid code'", async () => {
    const email = fresh()
    const code = await askCode(email)
    const invalid = refused(401, 'Invalid code')
    expect(await post('/v1/auth/email/verify', { email, code: wrong(code) })).toEqual(invalid)
    expect(await post('/v1/auth/email/verify', { email: fresh(), code })).toEqual(invalid)
    expect(await post('/v1/auth/email/verify', { email, code }, { projectId: 'other' })).toEqual(invalid)
    expect((await post('/v1/auth/email/verify', { email, code })).status).toBe(200)
    expect(await post('/v1/auth/email/verify', { email, code })).toEqual(invalid)
    expect(await post('/v1/auth/email/verify', { email, code: '12345' })).toEqual(
      refused(400, 'Invalid code'),
    )
  })

  it('locks a code after 5 wrong ones, even against the right one; a new code works', async () => {
    const email = fresh()
    const code = await askCode(email)
    for (let i = 0; i < 5; i++)
      expect(await post('/v1/auth/email/verify', { email, code: wrong(code) })).toEqual(
        refused(401, 'Invalid code'),
      )
    const locked = refused(401, 'Too many wrong codes. Ask for a new one.')
    expect(await post('/v1/auth/email/verify', { email, code })).toEqual(locked)
    clock += 30_000
    const next = await askCode(email, 2)
    expect((await post('/v1/auth/email/verify', { email, code: next })).status).toBe(200)
  })

  it("refuses a code 10 minutes after it was sent with 'The code has expired'", async () => {
    const email = fresh()
    const code = await askCode(email)
    clock += 10 * 60_000
    expect(await post('/v1/auth/email/verify', { email, code })).toEqual(refused(401, 'The code has expired'))
  })

  it("throttles an address for 30 s with 'Please try again after {n} seconds', n rounded up", async () => {
    const email = fresh()
    await askCode(email)
    const throttled = (n: number) => ({
      status: 429,
      body: { message: `Please try again after ${n} seconds` },
      retryAfter: String(n),
    })
    clock += 800
    expect(await post('/v1/auth/email', { email })).toEqual(throttled(30))
    // Spelled otherwise, the address is the same.
    expect(
      await post('/v1/auth/email', { email: ` ${email.replace('Mail.Example', 'MAIL.example')}` }),
    ).toEqual(throttled(30))
    clock += 28_201
    expect(await post('/v1/auth/email', { email })).toEqual(throttled(1))
    clock += 999
    expect(await post('/v1/auth/email', { email })).toEqual(sent)
    await catcher.nth(lower(email), 2)
    expect(await catcher.inbox(lower(email))).toHaveLength(2)
  })

  it('logs Ada@ and ada@ in to one user: the local part is lower-cased too', async () => {
    const email = fresh()
    const { user } = await login(email)
    expect(user.email).toBe(lower(email))
    expect(user.email).toMatch(/^visitor\d+@mail\.example$/)
    clock += 30_000
    expect((await login(lower(email), 2)).user).toEqual(user)
  })

  describe('caps over time', () => {
    const tooMany = (seconds: number) => ({
      status: 429,
      body: { message: 'Too many wrong codes. Try again later.' },
      retryAfter: String(seconds),
    })
    const tooManyCodes = (seconds: number) => ({
      status: 429,
      body: { message: 'Too many codes were sent. Try again later.' },
      retryAfter: String(seconds),
    })
    const verify = (email: string, code: string, client?: string) =>
      post('/v1/auth/email/verify', { email, code }, { ...(client ? { client } : {}) })
    /** Asks a code for `email` at `client`'s asking, reading it from the `count`-th email the address got. */
    const askAt = async (email: string, count: number, client: string) => {
      expect(await post('/v1/auth/email', { email }, { client })).toEqual(sent)
      return Catcher.codeOf(await catcher.nth(lower(email), count))
    }

    it("lets no one client lock an address's owner out: 10 wrong codes from it hold it, not the owner", async () => {
      const email = fresh()
      const first = clock
      const attacker = host()
      const code = await askAt(email, 1, attacker)
      for (let i = 0; i < 5; i++)
        expect(await verify(email, wrong(code), attacker)).toEqual(refused(401, 'Invalid code'))
      // Its 6th to 10th wrong codes this hour are not even tried, and it is sent no code.
      clock += 30_000
      const left = Math.ceil((first + 3_600_000 - clock) / 1000)
      for (let i = 0; i < 5; i++) expect(await verify(email, wrong(code), attacker)).toEqual(tooMany(left))
      expect(await post('/v1/auth/email', { email }, { client: attacker })).toEqual(tooMany(left))
      // The owner, from their own address, is sent a code and logs in.
      const owner = host()
      const own = await askAt(email, 2, owner)
      expect((await verify(email, own, owner)).status).toBe(200)
    })

    it("answers 429 'Too many wrong codes. Try again later.' past 10 wrong codes in an hour from every client, to the right code and to a new one", async () => {
      const email = fresh()
      const first = clock
      for (const [count, tries] of [
        [1, 4],
        [2, 5],
      ] as const) {
        const client = host()
        const code = await askAt(email, count, client)
        for (let i = 0; i < tries; i++)
          expect(await verify(email, wrong(code), client)).toEqual(refused(401, 'Invalid code'))
        clock += 30_000
      }
      // 9 wrong codes: a third is sent, and its first wrong try is the 10th of the hour.
      const code = await askCode(email, 3)
      expect(await verify(email, wrong(code))).toEqual(refused(401, 'Invalid code'))
      clock += 1_500
      const left = (first + 3_600_000 - clock) / 1000
      expect(await verify(email, code)).toEqual(tooMany(Math.ceil(left)))
      clock += 30_000
      expect(await post('/v1/auth/email', { email })).toEqual(tooMany(Math.ceil(left - 30)))
      expect(await catcher.inbox(lower(email))).toHaveLength(3)
      // The 30 s throttle keeps the product's text (docs/behaviour.md §5) for everyone else.
      const other = fresh()
      await askCode(other)
      expect((await post('/v1/auth/email', { email: other })).body).toEqual({
        message: 'Please try again after 30 seconds',
      })
      // Once the first failure is an hour old, the address may ask again, and log in.
      clock = first + 3_600_000
      expect((await post('/v1/auth/email/verify', { email, code: await askCode(email, 4) })).status).toBe(200)
    })

    it("answers 429 'Too many codes were sent. Try again later.' to a client past 20 codes an hour, to it alone", async () => {
      const mailer = host()
      const first = clock
      for (let i = 0; i < 20; i++) {
        expect(await post('/v1/auth/email', { email: fresh() }, { client: mailer })).toEqual(sent)
        clock += 1_000
      }
      const victim = fresh()
      const left = Math.ceil((first + 3_600_000 - clock) / 1000)
      expect(await post('/v1/auth/email', { email: victim }, { client: mailer })).toEqual(tooManyCodes(left))
      expect(await catcher.inbox(lower(victim))).toEqual([])
      expect(await post('/v1/auth/email', { email: victim })).toEqual(sent)
    })

    it('holds a client past 30 wrong codes an hour over every address, and everyone past the configured total', async () => {
      const guesser = host()
      const first = clock
      for (let n = 0; n < 6; n++) {
        const email = fresh()
        const code = await askAt(email, 1, guesser)
        for (let i = 0; i < 5; i++) expect((await verify(email, wrong(code), guesser)).status).toBe(401)
      }
      const email = fresh()
      const code = await askAt(email, 1, guesser)
      clock += 2_000
      expect(await verify(email, code, guesser)).toEqual(
        tooMany(Math.ceil((first + 3_600_000 - clock) / 1000)),
      )
      expect((await verify(email, code)).status).toBe(200)
      // Everyone's caps, set low: 2 codes a minute in all, 1 wrong code a minute in all.
      const tight = Service.create({
        db,
        config: emailConfig(catcher.port, {
          codes: [{ max: 2, windowS: 60 }],
          wrongCodes: [{ max: 1, windowS: 60 }],
        }),
        now: () => clock,
      }).api
      clock += 3_600_000
      const codeFor = async (email: string) => {
        expect(await post('/v1/auth/email', { email }, { app: tight })).toEqual(sent)
        return Catcher.codeOf(await catcher.nth(lower(email), 1))
      }
      const [a, b] = [fresh(), fresh()]
      const [codeOfA, codeOfB] = [await codeFor(a), await codeFor(b)]
      expect(await post('/v1/auth/email', { email: fresh() }, { app: tight })).toEqual(tooManyCodes(60))
      const wrongOfB = { email: b, code: wrong(codeOfB) }
      expect((await post('/v1/auth/email/verify', wrongOfB, { app: tight })).status).toBe(401)
      expect(await post('/v1/auth/email/verify', { email: a, code: codeOfA }, { app: tight })).toEqual(
        tooMany(60),
      )
    })
  })

  it('answers alike for an address with an account and one without', async () => {
    const known = fresh()
    await login(known)
    clock += 30_000
    expect(await post('/v1/auth/email', { email: known })).toEqual(sent)
    expect(await post('/v1/auth/email', { email: fresh() })).toEqual(sent)
  })

  it('answers 502 when the mail server is down, and throttles nothing: the previous code still works', async () => {
    const email = fresh()
    const notSent = refused(502, 'The email could not be sent. Try again.')
    expect(await post('/v1/auth/email', { email }, { app: down })).toEqual(notSent)
    const code = await askCode(email)
    clock += 30_000
    expect(await post('/v1/auth/email', { email }, { app: down })).toEqual(notSent)
    expect(await post('/v1/auth/email', { email }, { app: down })).toEqual(notSent)
    expect((await post('/v1/auth/email/verify', { email, code })).status).toBe(200)
    expect(await catcher.inbox(lower(email))).toHaveLength(1)
  })

  it("refuses malformed addresses with 400 'Invalid email'", async () => {
    for (const email of [
      '',
      'ada',
      'ada@example',
      'a da@example.com',
      'Ada <ada@example.com>',
      42,
      undefined,
    ])
      expect(await post('/v1/auth/email', { email })).toEqual(refused(400, 'Invalid email'))
    expect(await post('/v1/auth/email/verify', { email: 'ada@', code: '123456' })).toEqual(
      refused(400, 'Invalid email'),
    )
    const response = await api.request('/v1/auth/email?projectId=demo', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{',
    })
    expect(response.status).toBe(400)
  })

  it('sends no code for a body not declared application/json, as a page of another site posts one', async () => {
    const email = fresh()
    // What a cross-site form or fetch may send without a CORS preflight ("simple" requests), and no type.
    const types = [
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]
    for (const type of [...types, undefined])
      for (const path of ['/v1/auth/email', '/v1/auth/email/verify']) {
        const response = await api.request(`${path}?projectId=demo&st=airlock&sv=0.1.0`, {
          method: 'POST',
          ...(type ? { headers: { 'Content-Type': type } } : {}),
          body: JSON.stringify({ email, code: '123456' }),
        })
        expect([response.status, await response.json()], `${path} ${type}`).toEqual([
          415,
          { message: 'The body must be sent as application/json' },
        ])
      }
    expect(await db.query('select 1 from auth_codes where email = $1', [lower(email)])).toEqual([])
    // With its type (parameters allowed), as the modal sends it, the same body gets its code.
    const response = await api.request('/v1/auth/email?projectId=demo&st=airlock&sv=0.1.0', {
      method: 'POST',
      headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
      body: JSON.stringify({ email }),
    })
    expect(response.status).toBe(200)
    expect(await catcher.inbox(lower(email))).toHaveLength(1)
  })

  it("answers 404 'Email login is not configured' without an email block, 403 for an unknown project", async () => {
    const off = refused(404, 'Email login is not configured')
    expect(await post('/v1/auth/email', { email: fresh() }, { app: bare })).toEqual(off)
    expect(await post('/v1/auth/email/verify', { email: fresh(), code: '123456' }, { app: bare })).toEqual(
      off,
    )
    expect(await call('/v1/auth/me', undefined, { app: bare, token: 'x'.repeat(43) })).toEqual(off)
    expect(await post('/v1/auth/email', { email: fresh() }, { projectId: 'nope' })).toEqual(
      refused(403, 'Project id not configured'),
    )
  })

  it("refuses a missing, tampered, another project's or expired token with 401 'Invalid session'", async () => {
    const { token } = await login(fresh())
    const invalid = refused(401, 'Invalid session')
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    for (const bad of [undefined, tampered, 'x'.repeat(43), `${token}x`, token.slice(1)])
      expect(await call('/v1/auth/me', undefined, bad === undefined ? {} : { token: bad })).toEqual(invalid)
    expect(await call('/v1/auth/me', undefined, { token, projectId: 'other' })).toEqual(invalid)
    const basic = await api.request('/v1/auth/me?projectId=demo', {
      headers: { Authorization: `Basic ${token}` },
    })
    expect(basic.status).toBe(401)
    expect((await call('/v1/auth/me', undefined, { token })).status).toBe(200)
    clock += 30 * 86_400_000
    expect(await call('/v1/auth/me', undefined, { token })).toEqual(invalid)
  })

  it('ends a session at logout, and only that one', async () => {
    const email = fresh()
    const first = await login(email)
    clock += 30_000
    const second = await login(email, 2)
    expect(await post('/v1/auth/logout', undefined, { token: first.token })).toEqual({
      status: 200,
      body: { success: true },
      retryAfter: null,
    })
    expect(await call('/v1/auth/me', undefined, { token: first.token })).toEqual(
      refused(401, 'Invalid session'),
    )
    expect(await post('/v1/auth/logout', undefined, { token: first.token })).toEqual(
      refused(401, 'Invalid session'),
    )
    expect((await call('/v1/auth/me', undefined, { token: second.token })).status).toBe(200)
  })

  it('never stores a code or a token as such', async () => {
    const email = fresh()
    const code = await askCode(email)
    const { token } = (await post('/v1/auth/email/verify', { email, code }))
      .body as Contract.EmailSessionAnswer
    const dump = JSON.stringify([
      await db.query('select * from auth_codes'),
      await db.query('select * from auth_sessions'),
    ])
    expect(dump).not.toContain(code)
    expect(dump).not.toContain(token)
  })

  describe('changing the email', () => {
    const change = (path: string, body: unknown, token: string, app = api) =>
      post(`/v1/auth/email/change${path}`, body, { token, app })

    it('takes a code from the current address, then one from the new, and moves the user', async () => {
      const email = fresh()
      const { token, user } = await login(email)
      const next = fresh()
      expect(await change('', { email: next }, token)).toEqual(sent)
      const primaryMail = await catcher.nth(lower(email), 2)
      expect(primaryMail.subject).toBe('Confirm your email change')
      const primary = Catcher.codeOf(primaryMail)
      // A code of one step works for no other.
      expect(await change('/confirm', { code: primary }, token)).toEqual(refused(401, 'Invalid code'))
      expect(await post('/v1/auth/email/verify', { email, code: primary })).toEqual(
        refused(401, 'Invalid code'),
      )
      expect(await change('/verify', { code: primary }, token)).toEqual(sent)
      const secondaryMail = await catcher.nth(lower(next), 1)
      expect(secondaryMail.subject).toBe('Confirm your new email')
      const secondary = Catcher.codeOf(secondaryMail)
      expect(await change('/verify', { code: secondary }, token)).toEqual(refused(401, 'Invalid code'))
      expect(await post('/v1/auth/email/verify', { email: next, code: secondary })).toEqual(
        refused(401, 'Invalid code'),
      )
      expect(await change('/confirm', { code: wrong(secondary) }, token)).toEqual(
        refused(401, 'Invalid code'),
      )
      const moved = { user: { id: user.id, email: lower(next) } }
      expect(await change('/confirm', { code: secondary }, token)).toEqual({
        status: 200,
        body: moved,
        retryAfter: null,
      })
      expect(await change('/confirm', { code: secondary }, token)).toEqual(refused(401, 'Invalid code'))
      expect((await call('/v1/auth/me', undefined, { token })).body).toEqual(moved)
      clock += 30_000
      expect((await login(next, 2)).user.id).toBe(user.id)
      expect((await login(email, 3)).user.id).not.toBe(user.id)
    })

    it("ends the user's other sessions, in every project, and keeps the one that made the change", async () => {
      const email = fresh()
      const kept = await login(email)
      clock += 30_000
      const sibling = await login(email, 2)
      clock += 30_000
      await post('/v1/auth/email', { email }, { projectId: 'other' })
      const code = Catcher.codeOf(await catcher.nth(lower(email), 3))
      const elsewhere = (await post('/v1/auth/email/verify', { email, code }, { projectId: 'other' }))
        .body as Contract.EmailSessionAnswer
      const next = fresh()
      expect(await change('', { email: next }, kept.token)).toEqual(sent)
      const primary = Catcher.codeOf(await catcher.nth(lower(email), 4))
      expect(await change('/verify', { code: primary }, kept.token)).toEqual(sent)
      // Until the change is made, every session stands.
      expect((await call('/v1/auth/me', undefined, { token: sibling.token })).status).toBe(200)
      const secondary = Catcher.codeOf(await catcher.nth(lower(next), 1))
      expect((await change('/confirm', { code: secondary }, kept.token)).status).toBe(200)
      const invalid = refused(401, 'Invalid session')
      expect(await call('/v1/auth/me', undefined, { token: sibling.token })).toEqual(invalid)
      expect(await call('/v1/auth/me', undefined, { token: elsewhere.token, projectId: 'other' })).toEqual(
        invalid,
      )
      expect(await call('/v1/auth/me', undefined, { token: kept.token })).toEqual({
        status: 200,
        body: { user: { id: kept.user.id, email: lower(next) } },
        retryAfter: null,
      })
    })

    it('treats addresses that differ only in case as one: the same as yours, or in use', async () => {
      const email = fresh()
      const { token } = await login(email)
      expect(await change('', { email: email.toUpperCase() }, token)).toEqual(
        refused(400, 'This is already your email'),
      )
      const taken = fresh()
      await login(taken)
      expect(await change('', { email: taken.toUpperCase() }, token)).toEqual(sent)
      const primary = Catcher.codeOf(await catcher.nth(lower(email), 2))
      expect(await change('/verify', { code: primary }, token)).toEqual(sent)
      const secondary = Catcher.codeOf(await catcher.nth(lower(taken), 2))
      expect(await change('/confirm', { code: secondary }, token)).toEqual(
        refused(409, 'This email is already in use'),
      )
    })

    it("refuses an address another user has with 409 'This email is already in use'", async () => {
      const email = fresh()
      const { token } = await login(email)
      const taken = fresh()
      await login(taken)
      expect(await change('', { email: taken }, token)).toEqual(sent)
      const primary = Catcher.codeOf(await catcher.nth(lower(email), 2))
      expect(await change('/verify', { code: primary }, token)).toEqual(sent)
      const secondary = Catcher.codeOf(await catcher.nth(lower(taken), 2))
      expect(await change('/confirm', { code: secondary }, token)).toEqual(
        refused(409, 'This email is already in use'),
      )
    })

    it('refuses the current address, a bad one, and any step without a session', async () => {
      const email = fresh()
      const { token } = await login(email)
      expect(await change('', { email }, token)).toEqual(refused(400, 'This is already your email'))
      expect(await change('', { email: 'nope' }, token)).toEqual(refused(400, 'Invalid email'))
      const invalid = refused(401, 'Invalid session')
      for (const path of ['', '/verify', '/confirm'])
        expect(await post(`/v1/auth/email/change${path}`, { email: fresh(), code: '123456' })).toEqual(
          invalid,
        )
    })

    it('keeps the first code when the new address cannot be mailed, so the visitor retries at once', async () => {
      const email = fresh()
      const { token } = await login(email)
      const next = fresh()
      expect(await change('', { email: next }, token)).toEqual(sent)
      const primary = Catcher.codeOf(await catcher.nth(lower(email), 2))
      expect(await change('/verify', { code: primary }, token, down)).toEqual(
        refused(502, 'The email could not be sent. Try again.'),
      )
      expect(await change('/verify', { code: primary }, token)).toEqual(sent)
      expect(Catcher.codeOf(await catcher.nth(lower(next), 1))).toMatch(/^\d{6}$/)
    })
  })

  describe("GET /v1/auth/social: the providers for the modal's buttons", () => {
    let social: Service.App
    beforeAll(async () => {
      await Projects.add(db, 'shop', [shop])
      const provider = (issuer: string) => ({ issuer, clientId: 'airlock', kind: 'oauth2' as const })
      const providers = {
        github: { ...provider('https://github.com'), userinfoUrl: 'https://api.github.com/user' },
        x: { ...provider('https://x.com'), userinfoUrl: 'https://api.x.com/2/users/me' },
        google: { issuer: 'https://accounts.google.com', clientId: 'airlock', kind: 'oidc' as const },
      }
      const config = { ...emailConfig(catcher.port), social: { providers } }
      social = Service.create({ db, config, now: () => clock }).api
    })
    const list = async (
      app: Service.App,
      query = '?projectId=demo&st=airlock&sv=0.1.0',
      origin = modalOrigin,
    ) => {
      const response = await app.request(`/v1/auth/social${query}`, { headers: { Origin: origin } })
      return {
        status: response.status,
        body: await response.json(),
        cache: response.headers.get('Cache-Control'),
        cors: response.headers.get('Access-Control-Allow-Origin'),
      }
    }

    it("answers the configured providers in the product's order (docs/behaviour.md §1), cached a minute, to the modal origin", async () => {
      const answer = await list(social)
      expect(answer).toEqual({
        status: 200,
        body: { providers: ['google', 'x', 'github'], farcaster: false },
        cache: 'public, max-age=60',
        cors: modalOrigin,
      })
      expect(S.parse(Contract.socialProvidersAnswer, answer.body).ok).toBe(true)
    })

    it('answers an empty list without social login, not a 404', async () => {
      expect(await list(api)).toMatchObject({ status: 200, body: { providers: [], farcaster: false } })
      expect(await list(bare)).toMatchObject({ status: 200, body: { providers: [], farcaster: false } })
    })

    it("answers no project's page (CORS), needs a configured project", async () => {
      const fromShop = await list(social, '?projectId=shop', shop)
      expect(fromShop).toMatchObject({ status: 200, cors: null })
      expect(await list(social, '?projectId=nope')).toMatchObject({
        status: 403,
        body: { message: 'Project id not configured' },
      })
      expect((await list(social, '')).status).toBe(400)
    })
  })
})
