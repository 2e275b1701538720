import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../Database.ts'
import { databases } from '../../internal/testing.ts'
import * as Projects from '../projects/Projects.ts'
import * as Siwx from './Nonces.ts'

describe('Siwx', () => {
  it('draws nonces of 24 letters and digits', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => Siwx.randomNonce()))
    expect(nonces.size).toBe(200)
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9]{24}$/)
  })
})

describe.each(databases())('Siwx storage on $engine', ({ open }) => {
  let db: Database
  const start = Date.UTC(2026, 10, 22)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo')
    await Projects.add(db, 'other')
  })
  afterAll(() => db?.close())

  it('accepts a nonce once, for its project, within 5 minutes', async () => {
    const { nonce, expiresAt } = await Siwx.issueNonce(db, 'demo', start)
    expect(expiresAt).toBe(start + Siwx.nonceTtlMs)
    expect(await Siwx.consumeNonce(db, 'other', nonce, start)).toBe('unknown')
    expect(await Siwx.consumeNonce(db, 'demo', nonce, start + 1000)).toBe('valid')
    expect(await Siwx.consumeNonce(db, 'demo', nonce, start + 2000)).toBe('used')
    expect(await Siwx.consumeNonce(db, 'demo', 'madeUpNonce123', start)).toBe('unknown')
    const late = await Siwx.issueNonce(db, 'demo', start)
    expect(await Siwx.consumeNonce(db, 'demo', late.nonce, start + Siwx.nonceTtlMs)).toBe('expired')
    expect(await Siwx.consumeNonce(db, 'demo', late.nonce, start)).toBe('used')
  })

  it('lets only one of racing sign-ins have a nonce', async () => {
    const { nonce } = await Siwx.issueNonce(db, 'demo', start)
    const states = await Promise.all(
      Array.from({ length: 5 }, () => Siwx.consumeNonce(db, 'demo', nonce, start)),
    )
    expect(states.filter((state) => state === 'valid')).toHaveLength(1)
  })

  it('prunes the nonces of every project an hour after they expired, when it issues one', async () => {
    const stored = async (...nonces: string[]) =>
      (await db.query<{ nonce: string }>('select nonce from siwx_nonces where nonce = any($1)', [nonces]))
        .map((row) => row.nonce)
        .sort()
    const mine = await Siwx.issueNonce(db, 'demo', start)
    const theirs = await Siwx.issueNonce(db, 'other', start + 60_000)
    const expiredFor = (nonce: Siwx.Nonce, ms: number) => nonce.expiresAt + ms
    // Expired exactly an hour ago: still kept, so a late replay is told "already used".
    await Siwx.issueNonce(db, 'demo', expiredFor(mine, Siwx.nonceRetentionMs))
    expect(await stored(mine.nonce, theirs.nonce)).toEqual([mine.nonce, theirs.nonce].sort())
    await Siwx.issueNonce(db, 'demo', expiredFor(mine, Siwx.nonceRetentionMs + 1))
    expect(await stored(mine.nonce, theirs.nonce)).toEqual([theirs.nonce])
    expect(await Siwx.consumeNonce(db, 'demo', mine.nonce, start)).toBe('unknown')
    // Issuing for one project prunes another's too.
    await Siwx.issueNonce(db, 'demo', expiredFor(theirs, Siwx.nonceRetentionMs + 1))
    expect(await stored(theirs.nonce)).toEqual([])
  })
})
