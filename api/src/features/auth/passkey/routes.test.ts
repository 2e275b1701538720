import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as Config from '../../../Config.ts'
import type * as Contract from '../../../contract/index.ts'
import type { Database } from '../../../Database.ts'
import { configOf } from '../../../internal/testApi.ts'
import { databases } from '../../../internal/testing.ts'
import * as Service from '../../../Service.ts'
import * as Projects from '../../projects/Projects.ts'
import * as Sessions from '../Sessions.ts'
import * as Users from '../Users.ts'
import * as Authenticator from './testing.ts'

const modalOrigin = 'http://airlock.localhost:5174'
const salt = new TextEncoder().encode('airlock/recovery-prf/v1')
/** A page project `demo` lists, which frames the modal. */
const listedPage = 'http://localhost:5173'
type Answer = { status: number; body: Record<string, unknown> }

describe.each(databases())('passkey routes on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let clock = Date.UTC(2026, 10, 23)
  const secret = 'a secret of at least thirty-two characters'
  let serial = 0

  const configWith = (modal: string): Config.Config => ({
    ...configOf(),
    modalOrigin: modal,
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret },
  })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', [listedPage])
    await Projects.add(db, 'other')
    api = Service.create({ db, config: configWith(modalOrigin), now: () => clock }).api
  })
  afterAll(() => db?.close())
  // Warnings of refused answers are the point of several tests; their text is asserted as the answer.
  vi.spyOn(console, 'warn').mockImplementation(() => {})

  const call = async (path: string, body: unknown, token?: string, app = api, projectId = 'demo') => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: modalOrigin }
    if (token) headers.Authorization = `Bearer ${token}`
    const response = await app.request(`${path}?projectId=${projectId}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const refused = (status: number, message: string): Answer => ({ status, body: { message } })

  /** A new user with a session, and a passkey of theirs registered through the routes. */
  async function registered(authenticator = Authenticator.create(modalOrigin)) {
    const email = `visitor${++serial}@mail.example`
    const user = await Users.findOrCreate(db, email, clock)
    const { token } = await Sessions.open(db, { userId: user.id, projectId: 'demo', secret, now: clock })
    const options = await call('/v1/auth/passkey/register/options', {}, token)
    expect(options.status).toBe(200)
    const asked = options.body.options as Contract.PasskeyCreationOptions
    const { response } = authenticator.register(asked, salt)
    const answer = await call('/v1/auth/passkey/register', { response }, token)
    expect(answer).toEqual({ status: 200, body: { credentialId: response.id } })
    return { user, email, token, authenticator, credentialId: response.id, asked }
  }

  const loginOptions = async (projectId = 'demo') =>
    (await call('/v1/auth/passkey/login/options', {}, undefined, api, projectId)).body
      .options as Contract.PasskeyRequestOptions

  it('registers a discoverable passkey with user verification for the session’s user, on the modal origin’s name', async () => {
    const { asked, user, email, token, authenticator } = await registered()
    expect(asked).toMatchObject({
      rp: { id: 'airlock.localhost', name: 'Airlock' },
      user: { name: email, displayName: email },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    })
    // Its user handle is the user's id, nothing that names them.
    expect(Buffer.from(asked.user.id, 'base64url').toString('hex')).toBe(user.id.replaceAll('-', ''))
    // The user's passkeys are excluded from the next registration.
    const again = (await call('/v1/auth/passkey/register/options', {}, token)).body
      .options as Contract.PasskeyCreationOptions
    expect(again.excludeCredentials?.map((c) => c.id)).toEqual([
      Buffer.from(authenticator.credentials[0]?.id ?? []).toString('base64url'),
    ])
  })

  it('signs in with the passkey alone: a session for its user, as an email login’s', async () => {
    const { user, email, authenticator } = await registered()
    const { response } = authenticator.assert(await loginOptions(), salt)
    const answer = await call('/v1/auth/passkey/login', { response })
    expect(answer).toEqual({
      status: 200,
      body: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), user: { id: user.id, email } },
    })
    const token = answer.body.token as string
    const me = await api.request('/v1/auth/me?projectId=demo', {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(await me.json()).toEqual({ user: { id: user.id, email } })
  })

  it('signs in from the modal’s frame on a page the project lists, and refuses it on a page it does not', async () => {
    const { user, authenticator } = await registered()
    const framed = authenticator.assert(await loginOptions(), salt, { topOrigin: listedPage })
    expect(await call('/v1/auth/passkey/login', { response: framed.response })).toMatchObject({
      status: 200,
      body: { user: { id: user.id } },
    })
    const unlisted = authenticator.assert(await loginOptions(), salt, { topOrigin: 'https://evil.example' })
    expect(await call('/v1/auth/passkey/login', { response: unlisted.response })).toEqual(
      refused(401, "The passkey's answer does not check out"),
    )
  })

  it('refuses a replayed assertion: its challenge was taken by the first', async () => {
    const { authenticator } = await registered()
    const { response } = authenticator.assert(await loginOptions(), salt)
    expect((await call('/v1/auth/passkey/login', { response })).status).toBe(200)
    expect(await call('/v1/auth/passkey/login', { response })).toEqual(
      refused(401, 'This passkey request expired or was already used'),
    )
  })

  it('refuses an assertion made on another origin or for another RP ID, and spends its challenge', async () => {
    const { authenticator } = await registered()
    const elsewhere = authenticator.assert(await loginOptions(), salt, { origin: 'http://localhost:5173' })
    expect(await call('/v1/auth/passkey/login', { response: elsewhere.response })).toEqual(
      refused(401, "The passkey's answer does not check out"),
    )
    expect(await call('/v1/auth/passkey/login', { response: elsewhere.response })).toEqual(
      refused(401, 'This passkey request expired or was already used'),
    )
    const otherRp = authenticator.assert(await loginOptions(), salt, { rpId: 'evil.localhost' })
    expect(await call('/v1/auth/passkey/login', { response: otherRp.response })).toEqual(
      refused(401, "The passkey's answer does not check out"),
    )
  })

  it('refuses a made-up challenge, an expired one, and one handed out in another project', async () => {
    const { authenticator } = await registered()
    const madeUp = { ...(await loginOptions()), challenge: Buffer.alloc(32, 7).toString('base64url') }
    const challenge = refused(401, 'This passkey request expired or was already used')
    expect(
      await call('/v1/auth/passkey/login', { response: authenticator.assert(madeUp, salt).response }),
    ).toEqual(challenge)
    const old = await loginOptions()
    clock += 5 * 60_000 + 1
    expect(
      await call('/v1/auth/passkey/login', { response: authenticator.assert(old, salt).response }),
    ).toEqual(challenge)
    const other = authenticator.assert(await loginOptions('other'), salt).response
    expect(await call('/v1/auth/passkey/login', { response: other })).toEqual(challenge)
  })

  it('refuses a cloned authenticator whose signature counter went back, and an unknown credential', async () => {
    const { authenticator } = await registered()
    const first = authenticator.assert(await loginOptions(), salt)
    const second = authenticator.assert(await loginOptions(), salt)
    expect((await call('/v1/auth/passkey/login', { response: second.response })).status).toBe(200)
    // `first` carries an older counter than the one `second` left (its challenge still unused): a copy of
    // the key signing on its own.
    expect(await call('/v1/auth/passkey/login', { response: first.response })).toEqual(
      refused(401, "The passkey's answer does not check out"),
    )
    const stranger = Authenticator.create(modalOrigin)
    stranger.register((await registeredOptions()).asked, salt)
    expect(
      await call('/v1/auth/passkey/login', {
        response: stranger.assert(await loginOptions(), salt).response,
      }),
    ).toEqual(refused(401, 'This passkey is not registered here'))
  })

  it('refuses a registration answering another user’s challenge, or without a session', async () => {
    const first = await registered()
    const second = await registered()
    // Options handed to the first user, answered in the second's session.
    const asked = (await call('/v1/auth/passkey/register/options', {}, first.token)).body
      .options as Contract.PasskeyCreationOptions
    const { response } = Authenticator.create(modalOrigin).register(asked, salt)
    expect(await call('/v1/auth/passkey/register', { response }, second.token)).toEqual(
      refused(401, 'This passkey request expired or was already used'),
    )
    expect(await call('/v1/auth/passkey/register', { response })).toEqual(refused(401, 'Invalid session'))
  })

  it('is not available where the modal origin is an IP address, which WebAuthn refuses', async () => {
    const onIp = Service.create({ db, config: configWith('http://127.0.0.1:5174'), now: () => clock }).api
    expect(await call('/v1/auth/passkey/login/options', {}, undefined, onIp)).toEqual(
      refused(404, 'Passkeys are not available here'),
    )
  })

  /** Registration options for a fresh user (their passkey then made by whoever answers them). */
  async function registeredOptions() {
    const user = await Users.findOrCreate(db, `stranger${++serial}@mail.example`, clock)
    const { token } = await Sessions.open(db, { userId: user.id, projectId: 'demo', secret, now: clock })
    const asked = (await call('/v1/auth/passkey/register/options', {}, token)).body
      .options as Contract.PasskeyCreationOptions
    return { asked, token }
  }
})
