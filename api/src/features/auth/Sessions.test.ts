import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
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
    expect((await Users.findOrCreate(db, 'Ada@mail.example', start)).id).not.toBe(ada.id)
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
})
