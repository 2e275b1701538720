import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import * as Projects from '../projects/Projects.ts'
import * as Caps from './Caps.ts'
import * as Codes from './Codes.ts'
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
  /** A client address of its own: what no other call counts against, unless a test passes one on. */
  const host = () => `203.0.113.${++serial}`
  const caps = Caps.defaults
  const login = (email: string, now = start, client = host(), limits = caps) =>
    Codes.issue(db, { email, purpose: 'login', projectId: 'demo', secret, now, client, caps: limits })
  const redeem = (
    email: string,
    code: string,
    now = start,
    projectId = 'demo',
    client = host(),
    limits = caps,
  ) =>
    Codes.redeem(db, { purpose: 'login', key: { email }, projectId, code, secret, now, client, caps: limits })
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
      client: host(),
      caps,
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
        client: host(),
        caps,
      }),
    )
    const change = (userId: string, purpose: Codes.Purpose, now = start) =>
      Codes.redeem(db, {
        purpose,
        key: { userId },
        projectId: 'demo',
        code,
        secret,
        now,
        client: host(),
        caps,
      })
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

  describe('caps over time', () => {
    const hour = 3_600_000
    const day = 24 * hour
    /** Sends the address a code at `at` and tries `count` wrong ones with it from `client`; the code. */
    const fail = async (email: string, count: number, at: number, client = host()) => {
      const { code } = await issued(login(email, at, client))
      for (let i = 0; i < count; i++)
        expect(await redeem(email, wrong(code), at + i, 'demo', client)).toEqual({
          ok: false,
          reason: 'invalid',
        })
      return code
    }
    const capped = (retryAfterMs: number) => ({ ok: false, reason: 'failures', retryAfterMs })

    it('are, by default, what a deployment can live with', () => {
      const perHour = (max: number) => ({ max, windowS: 3_600 })
      const perDay = (max: number) => ({ max, windowS: 86_400 })
      expect(Caps.defaults).toEqual({
        codesPerClient: [perHour(20)],
        codes: [perHour(5_000)],
        wrongCodesPerAddress: [perHour(10), perDay(30)],
        wrongCodesPerAddressAndClient: [perHour(5), perDay(10)],
        wrongCodesPerClient: [perHour(30)],
        wrongCodes: [perHour(5_000)],
      })
    })

    it("lets no one client lock an address's owner out: its own cap holds it first", async () => {
      const email = fresh()
      const t = start + 10 * day
      const [attacker, owner] = [host(), host()]
      const code = await fail(email, 5, t, attacker)
      // The attacker's 6th wrong code this hour is not even tried, nor is another code sent at its asking…
      expect(await redeem(email, wrong(code), t + 10, 'demo', attacker)).toEqual(capped(hour - 10))
      expect(await login(email, t + Codes.cooldownMs, attacker)).toEqual(capped(hour - Codes.cooldownMs))
      // …while the owner, from elsewhere, is sent a code and logs in.
      const next = await issued(login(email, t + Codes.cooldownMs, owner))
      expect((await redeem(email, next.code, t + Codes.cooldownMs + 1, 'demo', owner)).ok).toBe(true)
    })

    it("holds an address at 10 wrong codes an hour from every client together: two clients' worth", async () => {
      const email = fresh()
      const t = start + 20 * day
      await fail(email, 5, t)
      // 9 so far, from two clients: a third code is sent, and its first wrong try is the 10th.
      await fail(email, 4, t + Codes.cooldownMs)
      const code = await fail(email, 1, t + 2 * Codes.cooldownMs)
      const now = t + 2 * Codes.cooldownMs + 10
      // The 10th latest failure, the first one at t, leaves the hour at t + 1 h; the right code included.
      expect(await redeem(email, code, now)).toEqual(capped(t + hour - now))
      expect(await login(email, now + Codes.cooldownMs)).toEqual(capped(t + hour - now - Codes.cooldownMs))
      expect(await login(email, t + hour - 1)).toEqual(capped(1))
      // Other addresses, and the same address's other purposes, are not held.
      expect((await login(fresh(), now)).ok).toBe(true)
      const user = await Users.findOrCreate(db, email, now)
      const change = { email, purpose: 'change-primary', projectId: 'demo', userId: user.id } as const
      const other = { ...change, newEmail: fresh(), secret, now, client: host(), caps }
      expect((await Codes.issue(db, other)).ok).toBe(true)
      const next = await issued(login(email, t + hour))
      expect((await redeem(email, next.code, t + hour)).ok).toBe(true)
    })

    it('holds an address at 30 wrong codes a day even at 10 an hour, until the day is over', async () => {
      const email = fresh()
      const t = start + 30 * day
      // Three hours of 10 wrong codes each, an hour and a minute apart, two clients an hour.
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
      // Events go a day (the longest window) after they were counted, when a code is issued.
      await issued(login(fresh(), t + 2 * day))
      expect(await db.query('select 1 from auth_code_events where email = $1', [email])).toEqual([])
    })

    it('holds a client at 30 wrong codes an hour over every address, and only that client', async () => {
      const t = start + 40 * day
      const spreader = host()
      const addresses = Array.from({ length: 6 }, fresh)
      for (const [index, email] of addresses.entries()) await fail(email, 5, t + index, spreader)
      const target = fresh()
      const { code } = await issued(login(target, t + 10, spreader))
      expect(await redeem(target, wrong(code), t + 20, 'demo', spreader)).toEqual(capped(hour - 20))
      expect(await redeem(target, code, t + 20, 'demo', spreader)).toEqual(capped(hour - 20))
      expect((await redeem(target, code, t + 20)).ok).toBe(true)
    })

    it('holds everyone past the total of wrong codes, and every client past its codes sent, as configured', async () => {
      const t = start + 50 * day
      const tight: Caps.Caps = {
        ...caps,
        codesPerClient: [{ max: 2, windowS: 60 }],
        codes: [{ max: 3, windowS: 60 }],
        wrongCodes: [{ max: 2, windowS: 60 }],
      }
      const busy = host()
      const [first, second, third] = [fresh(), fresh(), fresh()]
      const a = await issued(login(first, t, busy, tight))
      const b = await issued(login(second, t + 1, busy, tight))
      const sends = { ok: false, reason: 'sends' }
      expect(await login(fresh(), t + 2, busy, tight)).toEqual({ ...sends, retryAfterMs: 60_000 - 2 })
      const c = await issued(login(third, t + 3, host(), tight))
      expect(await login(fresh(), t + 4, host(), tight)).toEqual({ ...sends, retryAfterMs: 60_000 - 4 })
      // Two wrong codes from two clients for two addresses: the third try, anyone's, waits for the first.
      for (const [email, code] of [
        [first, a.code],
        [second, b.code],
      ] as const)
        expect(await redeem(email, wrong(code), t + 5, 'demo', host(), tight)).toEqual({
          ok: false,
          reason: 'invalid',
        })
      expect(await redeem(third, c.code, t + 6, 'demo', host(), tight)).toEqual(capped(60_000 - 1))
      expect((await redeem(third, c.code, t + 60_005, 'demo', host(), tight)).ok).toBe(true)
    })

    it('takes back a send whose mail never left', async () => {
      const t = start + 60 * day
      const one: Caps.Caps = { ...caps, codesPerClient: [{ max: 1, windowS: 60 }] }
      const client = host()
      const failed = await issued(login(fresh(), t, client, one))
      await failed.undo()
      expect((await login(fresh(), t + 1, client, one)).ok).toBe(true)
      expect((await login(fresh(), t + 2, client, one)).ok).toBe(false)
    })

    it('counts racing wrong tries one by one against the address', async () => {
      const email = fresh()
      const t = start + 70 * day
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
