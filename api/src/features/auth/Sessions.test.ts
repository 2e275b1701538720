import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { migrations } from '../../internal/migrations.ts'
import { databases } from '../../internal/testing.ts'
import * as Projects from '../projects/Projects.ts'
import * as Hmac from './Hmac.ts'
import * as Sessions from './Sessions.ts'
import * as Users from './Users.ts'

describe.each(databases())('email sessions and users on $engine', ({ open }) => {
  let db: Database
  const secret = 'k'.repeat(32)
  const start = Date.UTC(2026, 10, 22)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
  })
  afterAll(() => db?.close())

  it('creates a user once per address', async () => {
    const ada = await Users.findOrCreate(db, 'ada@mail.example', start)
    expect(ada).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'ada@mail.example',
      createdAt: start,
    })
    expect(await Users.findOrCreate(db, 'ada@mail.example', start + 1)).toEqual(ada)
  })

  it('lower-cases the stored addresses that no other user has in another case (the migration)', async () => {
    const lowering = migrations.find((migration) => migration.name === 'lower-case emails')
    if (!lowering) return expect.fail('no lower-case emails migration')
    const alone = await Users.findOrCreate(db, 'Lone.Mixed@Case.example', start)
    const pair = [
      await Users.findOrCreate(db, 'Pair@case.example', start),
      await Users.findOrCreate(db, 'pair@case.example', start),
    ]
    const twins = [
      await Users.findOrCreate(db, 'TWIN@case.example', start),
      await Users.findOrCreate(db, 'Twin@case.example', start),
    ]
    await db.query(
      `insert into auth_codes (email, purpose, project_id, new_email, code_hash, sent_at, expires_at)
       values ('Lone.Mixed@Case.example', 'login', 'demo', null, 'x', 0, 1),
              ('lower@case.example', 'login', 'demo', null, 'x', 0, 1),
              ('lower@case.example', 'change-primary', 'demo', 'New@case.example', 'x', 0, 1)`,
    )
    for (const statement of lowering.statements) await db.query(statement)
    const emailOf = async (id: string) =>
      (await db.query<{ email: string }>('select email from users where id = $1', [id]))[0]?.email
    expect(await emailOf(alone.id)).toBe('lone.mixed@case.example')
    // A conflict is left for a person to settle: the lower-case one is who logs in by email.
    for (const user of [...pair, ...twins]) expect(await emailOf(user.id)).toBe(user.email)
    expect(
      await db.query('select email, purpose from auth_codes where email like $1 order by purpose', [
        '%@case.example',
      ]),
    ).toEqual([{ email: 'lower@case.example', purpose: 'login' }])
  })

  it("moves a user to a free address, not to another user's", async () => {
    const bob = await Users.findOrCreate(db, 'bob@mail.example', start)
    await Users.findOrCreate(db, 'taken@mail.example', start)
    expect(await Users.changeEmail(db, bob.id, 'taken@mail.example')).toBe('taken')
    expect(await Users.changeEmail(db, bob.id, 'robert@mail.example')).toEqual({
      ...bob,
      email: 'robert@mail.example',
    })
    expect(await Users.changeEmail(db, crypto.randomUUID(), 'nobody@mail.example')).toBeUndefined()
  })

  it('draws a token per session and stores only its HMAC under the secret', async () => {
    const user = await Users.findOrCreate(db, 'carol@mail.example', start)
    const { session, token } = await Sessions.open(db, {
      userId: user.id,
      projectId: 'demo',
      secret,
      now: start,
    })
    const other = await Sessions.open(db, { userId: user.id, projectId: 'demo', secret, now: start })
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(other.token).not.toBe(token)
    const rows = await db.query<Record<string, unknown>>('select * from auth_sessions where id = $1', [
      session.id,
    ])
    expect(rows[0]?.token_hash).toBe(Hmac.digest(secret, 'session', token))
    expect(rows[0]?.token_hash).not.toBe(bytesToHex(sha256(utf8ToBytes(token))))
    for (const value of Object.values(rows[0] ?? {})) expect(String(value)).not.toContain(token)
  })

  it('finds the active session of the project by its token, for 30 days, until revoked', async () => {
    const user = await Users.findOrCreate(db, 'dan@mail.example', start)
    const { session, token } = await Sessions.open(db, {
      userId: user.id,
      projectId: 'demo',
      secret,
      now: start,
    })
    expect(session.expiresAt).toBe(start + 30 * 86_400_000)
    expect(Sessions.sessionTtlMs).toBe(30 * 86_400_000)
    const find = (parameters: Partial<Sessions.FindParameters> = {}) =>
      Sessions.find(db, { token, projectId: 'demo', secret, now: start, ...parameters })
    expect(await find()).toEqual({ session, user })
    expect(await find({ now: session.expiresAt - 1 })).toEqual({ session, user })
    expect(await find({ now: session.expiresAt })).toBeUndefined()
    expect(await find({ projectId: 'other' })).toBeUndefined()
    expect(await find({ secret: 'z'.repeat(32) })).toBeUndefined()
    expect(await find({ token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` })).toBeUndefined()
    await Sessions.revoke(db, session.id, start + 1)
    await Sessions.revoke(db, session.id, start + 2)
    expect(await find()).toBeUndefined()
    const [row] = await db.query<{ revoked_at: string }>(
      'select revoked_at from auth_sessions where id = $1',
      [session.id],
    )
    expect(Number(row?.revoked_at)).toBe(start + 1)
  })

  it("ends the user's other sessions, in every project, and keeps the one named", async () => {
    const user = await Users.findOrCreate(db, 'erin@mail.example', start)
    const other = await Users.findOrCreate(db, 'frank@mail.example', start)
    const open = (userId: string, projectId: string) =>
      Sessions.open(db, { userId, projectId, secret, now: start })
    const kept = await open(user.id, 'demo')
    const sibling = await open(user.id, 'demo')
    const elsewhere = await open(user.id, 'other')
    const stranger = await open(other.id, 'demo')
    await Sessions.revoke(db, sibling.session.id, start + 1)
    await Sessions.revokeOthers(db, { userId: user.id, keep: kept.session.id, now: start + 2 })
    const active = async ({ token, session }: Awaited<ReturnType<typeof open>>) =>
      (await Sessions.find(db, { token, projectId: session.projectId, secret, now: start + 3 })) !== undefined
    expect(await active(kept)).toBe(true)
    expect(await active(sibling)).toBe(false)
    expect(await active(elsewhere)).toBe(false)
    expect(await active(stranger)).toBe(true)
    const [row] = await db.query<{ revoked_at: string }>(
      'select revoked_at from auth_sessions where id = $1',
      [sibling.session.id],
    )
    expect(Number(row?.revoked_at)).toBe(start + 1)
  })
})
