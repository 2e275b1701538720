import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import * as Projects from '../projects/Projects.ts'
import * as Siwx from './Sessions.ts'

describe.each(databases())('Siwx storage on $engine', ({ open }) => {
  let db: Database
  const start = Date.UTC(2026, 10, 22)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
  })
  afterAll(() => db?.close())

  describe('sessions', () => {
    const address = 'eip155:1:0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const base = { projectId: 'demo', address, message: 'm', signature: '0x00', issuedAt: start, now: start }

    it('lists active sessions only, and lets an operator revoke one', async () => {
      const { session: lasting } = await Siwx.createSession(db, base)
      const { session: brief } = await Siwx.createSession(db, { ...base, expiresAt: start + 60_000 })
      await Siwx.createSession(db, { ...base, projectId: 'other' })
      expect(lasting).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        projectId: 'demo',
        address: 'eip155:1:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        chainId: 'eip155:1',
        message: 'm',
        signature: '0x00',
        issuedAt: start,
        expiresAt: start + Siwx.maxSessionMs,
        revokedAt: null,
      })
      const ids = async (now: number) =>
        (await Siwx.activeSessions(db, 'demo', address, now)).map((s) => s.id)
      expect((await ids(start)).sort()).toEqual([lasting.id, brief.id].sort())
      expect(await ids(start + 60_000)).toEqual([lasting.id])
      expect(await Siwx.revoke(db, lasting.id, start + 1)).toBe(true)
      expect(await ids(start)).toEqual([brief.id])
      expect(await Siwx.revoke(db, lasting.id, start + 2)).toBe(true)
      expect((await Siwx.findSession(db, 'demo', lasting.id))?.revokedAt).toBe(start + 1)
      expect(await Siwx.findSession(db, 'other', lasting.id)).toBeUndefined()
      expect(await Siwx.revoke(db, crypto.randomUUID())).toBe(false)
      expect(await Siwx.revoke(db, 'not-a-uuid')).toBe(false)
    })

    it('caps a session at 30 days, with or without an expiration time', async () => {
      const cap = start + 30 * 86_400_000
      expect(Siwx.maxSessionMs).toBe(30 * 86_400_000)
      const endless = await Siwx.createSession(db, base)
      const distant = await Siwx.createSession(db, { ...base, expiresAt: start + 365 * 86_400_000 })
      const sooner = await Siwx.createSession(db, { ...base, expiresAt: cap - 1 })
      expect([endless, distant, sooner].map(({ session }) => session.expiresAt)).toEqual([cap, cap, cap - 1])
      const active = await Siwx.activeSessions(db, 'demo', address, cap - 1)
      expect(active.map((session) => session.id).sort()).toEqual(
        [endless.session.id, distant.session.id].sort(),
      )
      expect((await Siwx.activeSessions(db, 'demo', address, cap)).map((session) => session.id)).toEqual([])
    })

    it('draws a token per session, stores only its SHA-256, and finds the active session by it', async () => {
      const { session, token } = await Siwx.createSession(db, { ...base, expiresAt: start + 60_000 })
      const other = await Siwx.createSession(db, base)
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(other.token).not.toBe(token)
      const [row] = await db.query<{ token_hash: string }>(
        'select token_hash from siwx_sessions where id = $1',
        [session.id],
      )
      expect(row?.token_hash).toBe(bytesToHex(sha256(utf8ToBytes(token))))
      const leaks = await db.query('select 1 from siwx_sessions where token_hash = $1 or message = $1', [
        token,
      ])
      expect(leaks).toEqual([])
      expect(await Siwx.sessionByToken(db, 'demo', token, start)).toEqual(session)
      expect(await Siwx.sessionByToken(db, 'other', token, start)).toBeUndefined()
      expect(
        await Siwx.sessionByToken(db, 'demo', bytesToHex(sha256(utf8ToBytes(token))), start),
      ).toBeUndefined()
      expect(
        await Siwx.sessionByToken(
          db,
          'demo',
          `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
          start,
        ),
      ).toBeUndefined()
      expect(await Siwx.sessionByToken(db, 'demo', token, start + 60_000)).toBeUndefined()
      expect((await Siwx.sessionByToken(db, 'demo', other.token, start))?.id).toBe(other.session.id)
      await Siwx.revoke(db, other.session.id, start + 1)
      expect(await Siwx.sessionByToken(db, 'demo', other.token, start + 2)).toBeUndefined()
    })
  })
})
