import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import * as Projects from '../projects/Projects.ts'
import * as Codes from './Codes.ts'
import * as Failures from './Failures.ts'
import * as Hmac from './Hmac.ts'
import * as Users from './Users.ts'

describe('Codes.random', () => {
  it('draws 6 digits, every digit equally likely in every place', () => {
    const draws = Array.from({ length: 20_000 }, () => Codes.random())
    for (const code of draws) expect(code).toMatch(/^\d{6}$/)
    expect(new Set(draws).size).toBeGreaterThan(19_000)
    // 2,000 expected per digit and place; a biased draw (say, no leading zeros) lands far outside ±300.
    for (let place = 0; place < 6; place++) {
      const counts = Array.from(
        { length: 10 },
        (_, digit) => draws.filter((code) => code[place] === String(digit)).length,
      )
      for (const count of counts) expect(Math.abs(count - 2_000)).toBeLessThan(300)
    }
  })
})

describe.each(databases())('Codes on $engine', ({ open }) => {
  let db: Database
  const secret = 'k'.repeat(32)
  const start = Date.UTC(2026, 10, 22)
  let serial = 0
  const fresh = () => `visitor${++serial}@mail.example`
  const login = (email: string, now = start) =>
    Codes.issue(db, { email, purpose: 'login', projectId: 'demo', secret, now })
  const redeem = (email: string, code: string, now = start, projectId = 'demo') =>
    Codes.redeem(db, { purpose: 'login', key: { email }, projectId, code, secret, now })
  const issued = async (promise: Promise<Codes.Issued>) => {
    const result = await promise
    if (!result.ok) throw new Error(`throttled for ${result.retryAfterMs} ms`)
    return result
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
  })
  afterAll(() => db?.close())

  it('stores a code only as its HMAC under the secret, bound to its address and purpose', async () => {
    const email = fresh()
    const { code } = await issued(login(email))
    const rows = await db.query<Record<string, unknown>>('select * from auth_codes where email = $1', [email])
    expect(rows).toHaveLength(1)
    expect(rows[0]?.code_hash).toBe(Hmac.digest(secret, 'code', 'login', email, code))
    expect(rows[0]?.code_hash).not.toBe(Hmac.digest('x'.repeat(32), 'code', 'login', email, code))
    for (const value of Object.values(rows[0] ?? {})) expect(String(value)).not.toContain(code)
  })

  it('takes the right code once, and refuses it for another project', async () => {
    const email = fresh()
    const { code } = await issued(login(email))
    expect(await redeem(email, code, start, 'other')).toEqual({ ok: false, reason: 'invalid' })
    expect(await redeem(email, code, start + 1)).toEqual({
      ok: true,
      code: { email, purpose: 'login', projectId: 'demo', userId: null, newEmail: null, usedAt: start + 1 },
    })
    expect(await redeem(email, code, start + 2)).toEqual({ ok: false, reason: 'invalid' })
    expect(await redeem(fresh(), code)).toEqual({ ok: false, reason: 'invalid' })
  })

  it('refuses a code 10 minutes after it was sent', async () => {
    const email = fresh()
    const { code } = await issued(login(email))
    expect(await redeem(email, code, start + Codes.codeTtlMs)).toEqual({ ok: false, reason: 'expired' })
    expect((await redeem(email, code, start + Codes.codeTtlMs - 1)).ok).toBe(true)
  })

  it('locks a code after 5 wrong ones, the right one included', async () => {
    expect(Codes.maxTries).toBe(5)
    const email = fresh()
    const { code } = await issued(login(email))
    for (let i = 0; i < 4; i++)
      expect(await redeem(email, wrong(code))).toEqual({ ok: false, reason: 'invalid' })
    // A fifth try may still be right…
    const other = fresh()
    const second = await issued(login(other))
    for (let i = 0; i < 4; i++) await redeem(other, wrong(second.code))
    expect((await redeem(other, second.code)).ok).toBe(true)
    // …but after the fifth wrong one, nothing is.
    expect(await redeem(email, wrong(code))).toEqual({ ok: false, reason: 'invalid' })
    expect(await redeem(email, code)).toEqual({ ok: false, reason: 'locked' })
  })

  it('counts racing wrong tries one by one, and lets one of racing right ones win', async () => {
    const email = fresh()
    const { code } = await issued(login(email))
    await Promise.all(Array.from({ length: 8 }, () => redeem(email, wrong(code))))
    expect(await redeem(email, code)).toEqual({ ok: false, reason: 'locked' })
    const other = fresh()
    const second = await issued(login(other))
    const results = await Promise.all(Array.from({ length: 5 }, () => redeem(other, second.code)))
    expect(results.filter((result) => result.ok)).toHaveLength(1)
  })

  it('throttles an address for 30 s per purpose, and a new code replaces the old', async () => {
    const email = fresh()
    const first = await issued(login(email))
    const cooling = (retryAfterMs: number) => ({ ok: false, reason: 'cooldown', retryAfterMs })
    expect(await login(email, start + 800)).toEqual(cooling(29_200))
    expect(await login(email, start + Codes.cooldownMs - 1)).toEqual(cooling(1))
    const user = await Users.findOrCreate(db, email, start)
    const change = Codes.issue(db, {
      email,
      purpose: 'change-primary',
      projectId: 'demo',
      userId: user.id,
      newEmail: fresh(),
      secret,
      now: start + 1,
    })
    expect((await change).ok).toBe(true)
    const second = await issued(login(email, start + Codes.cooldownMs))
    expect(await redeem(email, first.code, start + Codes.cooldownMs)).toEqual({
      ok: false,
      reason: 'invalid',
    })
    expect((await redeem(email, second.code, start + Codes.cooldownMs)).ok).toBe(true)
    // A used code still throttles: the address was sent a mail all the same.
    expect((await login(email, start + Codes.cooldownMs + 1)).ok).toBe(false)
  })

  it('lets one of racing requests for an address have a code', async () => {
    const email = fresh()
    const results = await Promise.all(Array.from({ length: 5 }, () => login(email)))
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect(results.filter((result) => !result.ok)).toHaveLength(4)
  })

  it('undoes a code that could not be sent: the previous one works again, and nothing is throttled', async () => {
    const email = fresh()
    const first = await issued(login(email))
    const failed = await issued(login(email, start + Codes.cooldownMs))
    await failed.undo()
    expect((await redeem(email, failed.code, start + Codes.cooldownMs)).ok).toBe(false)
    expect((await redeem(email, first.code, start + Codes.cooldownMs)).ok).toBe(true)
    const lone = fresh()
    const undone = await issued(login(lone))
    await undone.undo()
    expect(await db.query('select 1 from auth_codes where email = $1', [lone])).toEqual([])
    expect((await login(lone, start + 1)).ok).toBe(true)
  })

  it('binds a change code to its user and purpose, and releases a redeemed one when asked', async () => {
    const ada = await Users.findOrCreate(db, fresh(), start)
    const eve = await Users.findOrCreate(db, fresh(), start)
    const newEmail = fresh()
    const { code } = await issued(
      Codes.issue(db, {
        email: ada.email,
        purpose: 'change-primary',
        projectId: 'demo',
        userId: ada.id,
        newEmail,
        secret,
        now: start,
      }),
    )
    const change = (userId: string, purpose: Codes.Purpose, now = start) =>
      Codes.redeem(db, { purpose, key: { userId }, projectId: 'demo', code, secret, now })
    expect(await redeem(ada.email, code)).toEqual({ ok: false, reason: 'invalid' })
    expect(await change(eve.id, 'change-primary')).toEqual({ ok: false, reason: 'invalid' })
    expect(await change(ada.id, 'change-secondary')).toEqual({ ok: false, reason: 'invalid' })
    const redeemed = await change(ada.id, 'change-primary', start + 5)
    expect(redeemed).toEqual({
      ok: true,
      code: {
        email: ada.email,
        purpose: 'change-primary',
        projectId: 'demo',
        userId: ada.id,
        newEmail,
        usedAt: start + 5,
      },
    })
    expect((await change(ada.id, 'change-primary')).ok).toBe(false)
    if (redeemed.ok) await Codes.release(db, redeemed.code)
    expect((await change(ada.id, 'change-primary')).ok).toBe(true)
  })

  describe('the cap on wrong codes, across codes', () => {
    const hour = 3_600_000
    const day = 24 * hour
    /** Sends the address a code at `at` and tries `count` wrong ones with it; the code. */
    const fail = async (email: string, count: number, at: number) => {
      const { code } = await issued(login(email, at))
      for (let i = 0; i < count; i++)
        expect(await redeem(email, wrong(code), at + i)).toEqual({ ok: false, reason: 'invalid' })
      return code
    }
    const capped = (retryAfterMs: number) => ({ ok: false, reason: 'failures', retryAfterMs })

    it('is 10 wrong codes an hour and 30 a day, per address and purpose', () => {
      expect(Failures.limits).toEqual([
        { windowMs: hour, max: 10 },
        { windowMs: day, max: 30 },
      ])
    })

    it('refuses the 11th try in an hour, the right code included, and any new code until the hour is over', async () => {
      const email = fresh()
      const t = start + 10 * day
      await fail(email, 4, t)
      await fail(email, 5, t + Codes.cooldownMs)
      // 9 so far: a third code is sent, and its first wrong try is the 10th.
      const code = await fail(email, 1, t + 2 * Codes.cooldownMs)
      const now = t + 2 * Codes.cooldownMs + 10
      // The 10th latest failure, the first one at t, leaves the hour at t + 1 h.
      expect(await redeem(email, code, now)).toEqual(capped(t + hour - now))
      expect(await login(email, now + Codes.cooldownMs)).toEqual(capped(t + hour - now - Codes.cooldownMs))
      expect(await login(email, t + hour - 1)).toEqual(capped(1))
      // Other addresses, and the same address's other purposes, are not held.
      expect((await login(fresh(), now)).ok).toBe(true)
      const user = await Users.findOrCreate(db, email, now)
      const change = { email, purpose: 'change-primary', projectId: 'demo', userId: user.id } as const
      expect((await Codes.issue(db, { ...change, newEmail: fresh(), secret, now })).ok).toBe(true)
      const next = await issued(login(email, t + hour))
      expect((await redeem(email, next.code, t + hour)).ok).toBe(true)
    })

    it('refuses the 31st try in a day even at 10 an hour, until the day is over', async () => {
      const email = fresh()
      const t = start + 20 * day
      // Three hours of 10 wrong codes each, an hour and a minute apart: never 10 within one hour.
      const block = hour + 60_000
      for (let k = 0; k < 3; k++) {
        await fail(email, 5, t + k * block)
        await fail(email, 5, t + k * block + Codes.cooldownMs)
      }
      const now = t + 3 * block
      expect(await login(email, now)).toEqual(capped(t + day - now))
      expect(await redeem(email, '000000', now)).toEqual(capped(t + day - now))
      expect(await login(email, t + day - 1)).toEqual(capped(1))
      expect((await login(email, t + day)).ok).toBe(true)
      // Failures go a day after they were made, when a code is issued.
      await issued(login(fresh(), t + 2 * day))
      expect(await db.query('select 1 from auth_code_failures where email = $1', [email])).toEqual([])
    })

    it('counts racing wrong tries one by one against it', async () => {
      const email = fresh()
      const t = start + 30 * day
      await fail(email, 5, t)
      const code = await fail(email, 4, t + Codes.cooldownMs)
      const now = t + Codes.cooldownMs + 10
      const results = await Promise.all(Array.from({ length: 6 }, () => redeem(email, wrong(code), now)))
      expect(results.filter((result) => !result.ok && result.reason === 'invalid')).toHaveLength(1)
      expect(results.filter((result) => !result.ok && result.reason === 'failures')).toHaveLength(5)
    })
  })

  it('prunes codes an hour after they expired, when it issues one', async () => {
    const email = fresh()
    await issued(login(email))
    const later = start + Codes.codeTtlMs + Codes.retentionMs
    await issued(login(fresh(), later))
    expect(await db.query('select 1 from auth_codes where email = $1', [email])).toHaveLength(1)
    await issued(login(fresh(), later + 1))
    expect(await db.query('select 1 from auth_codes where email = $1', [email])).toEqual([])
  })
})
