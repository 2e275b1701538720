import { randomBytes } from 'node:crypto'
import * as S from '@airlock/bridge-protocol/Shape'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { configOf, modalOrigin, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Sessions from '../auth/Sessions.ts'
import * as Users from '../auth/Users.ts'
import * as Projects from '../projects/Projects.ts'
import * as Modal from './testing.ts'

type Answer = { status: number; body: Record<string, unknown>; cache: string | null }
type CallOptions = { app?: Service.App; token?: string; origin?: string | null; projectId?: string }

describe.each(databases())('wallet routes on $engine', ({ open }) => {
  let db: Database
  /** The API; the same with another wallet key (changed since); one without the wallet block. */
  let api: Service.App
  let rekeyed: Service.App
  let bare: Service.App
  const clock = Date.UTC(2026, 10, 23)
  const secret = 'a secret of at least thirty-two characters'
  const walletKey = randomBytes(32).toString('hex')
  let serial = 0

  const configWith = (wallet?: Config.Config['wallet']): Config.Config => ({
    ...configOf(),
    // Never used to mail here: the routes need only the sessions' secret.
    email: { smtp: { host: '127.0.0.1', port: 1 }, from: 'login@airlock.example', secret },
    ...(wallet ? { wallet } : {}),
  })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
    const now = () => clock
    api = Service.create({ db, config: configWith({ key: walletKey }), now }).api
    rekeyed = Service.create({ db, config: configWith({ key: randomBytes(32).toString('hex') }), now }).api
    bare = Service.create({ db, config: configWith(), now }).api
  })
  afterAll(() => db?.close())

  /** A new user and a session of theirs in `projectId`. */
  const visitor = async (projectId = 'demo') => {
    const user = await Users.findOrCreate(db, `visitor${++serial}@mail.example`, clock)
    const { session, token } = await Sessions.open(db, { userId: user.id, projectId, secret, now: clock })
    return { user, session, token }
  }

  const call = async (path: string, body: unknown, options: CallOptions = {}): Promise<Answer> => {
    const { app = api, token, origin = modalOrigin, projectId = 'demo' } = options
    const headers: Record<string, string> = { 'Content-Type': 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    if (origin !== null) headers.Origin = origin
    const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }
    const response = await app.request(`${path}?projectId=${projectId}&st=airlock&sv=0.1.0`, init)
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      cache: response.headers.get('Cache-Control'),
    }
  }
  const post = (body: unknown, options?: CallOptions) => call('/v1/wallet', body, options)
  const get = (options?: CallOptions) => call('/v1/wallet', undefined, options)
  const refused = (status: number, message: string) => ({ status, body: { message }, cache: 'no-store' })
  const bytes = (base64: unknown) => new Uint8Array(Buffer.from(String(base64), 'base64'))
  /** What `GET /v1/wallet` answers for a wallet posted as `body`: its one recovery as the list. */
  const storedOf = ({ recovery, ...rest }: Contract.WalletBody) => ({ ...rest, recoveries: [recovery] })

  it('stores a wallet and hands its shares back to the same user, uncached, in any project', async () => {
    const { user, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    const { fingerprint, addresses } = made.body
    expect(await post(made.body, { token })).toEqual({
      status: 201,
      body: { fingerprint, addresses },
      cache: 'no-store',
    })
    const read = await get({ token })
    expect(read).toEqual({ status: 200, body: storedOf(made.body), cache: 'no-store' })
    expect(S.parse(Contract.storedWallet, read.body).ok).toBe(true)
    expect(bytes(read.body.authShare)).toEqual(made.authShare)
    // The recovery share comes back as sealed: the recovery password's key opens it, for this user and kind only.
    const sealed = bytes(made.body.recovery.sealed)
    expect(await Modal.open(sealed, made.recoveryKey, user.id, 'recovery')).toEqual(made.recoveryShare)
    await expect(Modal.open(sealed, made.recoveryKey, user.id, 'auth')).rejects.toThrow()
    // One wallet per user, whatever the project of the session.
    const other = await Sessions.open(db, { userId: user.id, projectId: 'other', secret, now: clock })
    expect((await get({ token: other.token, projectId: 'other' })).body).toEqual(read.body)
  })

  it('never stores the auth share in clear: it is sealed under wallet.key, for this user only', async () => {
    const { user, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    expect((await post(made.body, { token })).status).toBe(201)
    const rows = await db.query<{ auth_share: Uint8Array; dump: string }>(
      `select auth_share, row_to_json(w)::text as dump, encode(auth_share, 'hex') as hex
       from embedded_wallets w where user_id = $1`,
      [user.id],
    )
    const [row] = rows
    const stored = new Uint8Array(row?.auth_share ?? [])
    const share = Buffer.from(made.authShare)
    const secretPart = share.subarray(9)
    expect(Buffer.from(stored).indexOf(secretPart)).toBe(-1)
    const dump = JSON.stringify(rows)
    for (const text of [made.body.authShare, secretPart.toString('hex'), secretPart.toString('base64')])
      expect(dump).not.toContain(text)
    const key = await Modal.aesKey(Buffer.from(walletKey, 'hex'))
    expect(await Modal.open(stored, key, user.id, 'auth')).toEqual(made.authShare)
    await expect(Modal.open(stored, key, crypto.randomUUID(), 'auth')).rejects.toThrow()
  })

  it("answers another user 404 'No wallet yet', never the other's wallet", async () => {
    const owner = await visitor()
    expect((await post((await Modal.makeWallet(owner.user.id)).body, { token: owner.token })).status).toBe(
      201,
    )
    const stranger = await visitor()
    expect(await get({ token: stranger.token })).toEqual(refused(404, 'No wallet yet'))
  })

  it("refuses a missing, tampered, revoked, expired or another project's session with 401", async () => {
    const { user, session, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    const invalid = refused(401, 'Invalid session')
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    for (const bad of [undefined, tampered, 'x'.repeat(43), `${token}x`]) {
      expect(await post(made.body, { token: bad })).toEqual(invalid)
      expect(await get({ token: bad })).toEqual(invalid)
    }
    expect(await get({ token, projectId: 'other' })).toEqual(invalid)
    const basic = await api.request('/v1/wallet?projectId=demo', {
      headers: { Authorization: `Basic ${token}`, Origin: modalOrigin },
    })
    expect(basic.status).toBe(401)
    expect((await post(made.body, { token })).status).toBe(201)
    const expired = Service.create({
      db,
      config: configWith({ key: walletKey }),
      now: () => session.expiresAt,
    }).api
    expect(await get({ app: expired, token })).toEqual(invalid)
    await Sessions.revoke(db, session.id, clock)
    expect(await get({ token })).toEqual(invalid)
  })

  it("serves only the modal origin: 403 'Wallet shares are only served to the modal origin'", async () => {
    const { user, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    const foreign = refused(403, 'Wallet shares are only served to the modal origin')
    for (const origin of [
      null,
      shop,
      'null',
      `${modalOrigin}/`,
      'http://127.0.0.1:5175',
      'http://localhost:5174',
    ]) {
      expect(await post(made.body, { token, origin })).toEqual(foreign)
      expect(await get({ token, origin })).toEqual(foreign)
    }
    // Before the session and the body are looked at: a foreign page learns nothing of either.
    expect(await post({}, { origin: shop })).toEqual(foreign)
    expect(await get({ token })).toEqual(refused(404, 'No wallet yet'))
  })

  it("never overwrites a wallet: a second one for the user is 409 'This account already has a wallet'", async () => {
    const { user, token } = await visitor()
    const first = await Modal.makeWallet(user.id)
    const second = await Modal.makeWallet(user.id)
    expect((await post(first.body, { token })).status).toBe(201)
    const taken = refused(409, 'This account already has a wallet')
    expect(await post(second.body, { token })).toEqual(taken)
    expect(await post(first.body, { token })).toEqual(taken)
    expect((await get({ token })).body).toEqual(storedOf(first.body))
  })

  it('stores one of two POSTs made at once for a user', async () => {
    const { user, token } = await visitor()
    const wallets = [await Modal.makeWallet(user.id), await Modal.makeWallet(user.id)]
    const answers = await Promise.all(wallets.map((made) => post(made.body, { token })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
    const stored = wallets[answers.findIndex((answer) => answer.status === 201)]
    expect((await get({ token })).body).toEqual(stored && storedOf(stored.body))
  })

  it("refuses an address another user's wallet has with 409, and stores nothing", async () => {
    const owner = await visitor()
    const owned = await Modal.makeWallet(owner.user.id)
    expect((await post(owned.body, { token: owner.token })).status).toBe(201)
    const { user, token } = await visitor()
    const mine = await Modal.makeWallet(user.id)
    const taken = refused(409, 'This address is already the wallet of another account')
    const sameEvm = { ...owned.body, recovery: mine.body.recovery }
    expect(await post(sameEvm, { token })).toEqual(taken)
    const sameSolana = {
      ...mine.body,
      addresses: { ...mine.body.addresses, solana: owned.body.addresses.solana },
    }
    expect(await post(sameSolana, { token })).toEqual(taken)
    expect(await get({ token })).toEqual(refused(404, 'No wallet yet'))
    expect((await post(mine.body, { token })).status).toBe(201)
    expect((await get({ token: owner.token })).body).toEqual(storedOf(owned.body))
  })

  it('refuses malformed wallets with 400 naming what is wrong, and stores nothing', async () => {
    const { user, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    const { body } = made
    const share = made.authShare
    const offCurve = base58.encode(offCurveKey())
    const lower = body.addresses.eip155.toLowerCase()
    const miscased = `0x${body.addresses.eip155.slice(2).replace(/[a-f]/, (c) => c.toUpperCase())}`
    const sealedRecovery = bytes(body.recovery.sealed)
    const sealedAs = (sealed: string) => ({ ...body, recovery: { method: 'password', sealed } })
    const cases: [unknown, string][] = [
      [{ ...body, authShare: 'not base64!' }, 'authShare: expected base64 of 1 to 256 bytes'],
      [{ ...body, authShare: 'AQI' }, 'authShare: expected base64 of 1 to 256 bytes'],
      [{ ...body, authShare: '' }, 'authShare: expected base64 of 1 to 256 bytes'],
      [
        { ...body, authShare: Modal.base64(new Uint8Array(257)) },
        'authShare: expected base64 of 1 to 256 bytes',
      ],
      [sealedAs(Modal.base64(new Uint8Array(513))), 'recovery.sealed: expected base64 of 1 to 512 bytes'],
      [{ ...body, authShare: 'AQJ=' }, 'authShare: expected canonical base64'],
      [{ ...body, authShare: 42 }, 'authShare: expected base64 of 1 to 256 bytes'],
      [
        { ...body, fingerprint: body.fingerprint.toUpperCase() },
        'fingerprint: expected 16 lower-case hex digits',
      ],
      [{ ...body, fingerprint: '00'.repeat(8) }, "The fingerprint is not the EVM address's"],
      [
        { ...body, addresses: { ...body.addresses, eip155: lower } },
        'Invalid EVM address: expected its EIP-55 checksummed form',
      ],
      [
        { ...body, addresses: { ...body.addresses, eip155: miscased } },
        'Invalid EVM address: expected its EIP-55 checksummed form',
      ],
      [
        { ...body, addresses: { ...body.addresses, solana: offCurve } },
        'Invalid Solana address: expected a base58 ed25519 public key',
      ],
      [
        { ...body, addresses: { ...body.addresses, solana: base58.encode(new Uint8Array(31).fill(9)) } },
        'Invalid Solana address: expected a base58 ed25519 public key',
      ],
      [
        { ...body, addresses: { ...body.addresses, solana: `${'1'.repeat(32)}6` /* 33 bytes */ } },
        'Invalid Solana address: expected a base58 ed25519 public key',
      ],
      [
        { ...body, addresses: { eip155: body.addresses.eip155 } },
        'addresses.solana: expected a base58 Solana address',
      ],
      [
        { ...body, authShare: Modal.base64(new Uint8Array([2, ...share.subarray(1)])) },
        'The auth share is not a share of version 1',
      ],
      [
        { ...body, authShare: Modal.base64(share.subarray(0, share.length - 1)) },
        'The auth share is not a share of version 1',
      ],
      [
        { ...body, authShare: Modal.base64(new Uint8Array([1, ...randomBytes(8), ...share.subarray(9)])) },
        'The auth share is of another wallet than the fingerprint',
      ],
      [
        sealedAs(Modal.base64(new Uint8Array([2, ...sealedRecovery.subarray(1)]))),
        'The recovery share is not a sealed share of version 1 the size of the auth share',
      ],
      [
        sealedAs(Modal.base64(sealedRecovery.subarray(0, -1))),
        'The recovery share is not a sealed share of version 1 the size of the auth share',
      ],
      [
        sealedAs(body.authShare),
        'The recovery share is not a sealed share of version 1 the size of the auth share',
      ],
    ]
    for (const [bad, message] of cases)
      expect(await post(bad, { token }), message).toEqual(refused(400, message))
    const response = await api.request('/v1/wallet?projectId=demo', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, Origin: modalOrigin, 'Content-Type': 'application/json' },
      body: '{',
    })
    expect([response.status, await response.json()]).toEqual([400, { message: 'The body is not valid JSON' }])
    expect(await get({ token })).toEqual(refused(404, 'No wallet yet'))
    expect((await post(body, { token })).status).toBe(201)
  })

  it("answers 404 'The embedded wallet is not configured' without a wallet block, 403 for an unknown project", async () => {
    const { user, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    const off = refused(404, 'The embedded wallet is not configured')
    expect(await post(made.body, { app: bare, token })).toEqual(off)
    expect(await get({ app: bare, token })).toEqual(off)
    expect(await get({ token, projectId: 'nope' })).toEqual(refused(403, 'Project id not configured'))
  })

  it('fails with a 500 that says why when wallet.key changed since, never with other bytes', async () => {
    const { user, token } = await visitor()
    const made = await Modal.makeWallet(user.id)
    expect((await post(made.body, { token })).status).toBe(201)
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect(await get({ app: rekeyed, token })).toEqual(
        refused(500, 'The auth share does not open with the configured wallet key'),
      )
      expect(String(logged.mock.calls[0])).toContain(user.id)
    } finally {
      logged.mockRestore()
    }
    expect(await post(made.body, { app: rekeyed, token })).toEqual(
      refused(409, 'This account already has a wallet'),
    )
    expect((await get({ token })).body).toEqual(storedOf(made.body))
  })
})

/** 32 bytes that are no ed25519 point: a program-derived address's kind of key, not a wallet's. */
function offCurveKey(): Uint8Array {
  for (let i = 0; ; i++) {
    const candidate = new Uint8Array(32).fill(i)
    try {
      ed25519.ExtendedPoint.fromHex(candidate)
    } catch {
      return candidate
    }
  }
}
