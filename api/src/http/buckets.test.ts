import { describe, expect, it } from 'vitest'
import * as Buckets from './buckets.ts'

function clock() {
  let at = 1_000_000
  return { now: () => at, advance: (ms: number) => (at += ms) }
}

const refused = (admission: Buckets.Admission) => (admission.ok ? undefined : admission.retryAfterS)

describe('Buckets', () => {
  it('lets a quiet key burst, then refills at its rate, never above the burst', () => {
    const time = clock()
    const buckets = Buckets.create({ burst: 3, perSecond: 2, inFlight: 100 }, { now: time.now })
    for (let i = 0; i < 3; i++) expect(buckets.take('a').ok).toBe(true)
    expect(refused(buckets.take('a'))).toBe(1)
    time.advance(500)
    expect(buckets.take('a').ok).toBe(true)
    expect(buckets.take('a').ok).toBe(false)
    time.advance(60_000)
    for (let i = 0; i < 3; i++) expect(buckets.take('a').ok).toBe(true)
    expect(buckets.take('a').ok).toBe(false)
  })

  it('takes nothing away when the clock steps back, and refills from the latest reading once it passes it', () => {
    const time = clock()
    const buckets = Buckets.create({ burst: 2, perSecond: 1, inFlight: 100 }, { now: time.now })
    expect(buckets.take('a').ok).toBe(true)
    time.advance(-600_000)
    expect(buckets.take('a').ok).toBe(true)
    expect(refused(buckets.take('a'))).toBe(1)
    // Back to where it was: no time has passed since the last reading that counts, so nothing came back.
    time.advance(600_000)
    expect(buckets.take('a').ok).toBe(false)
    time.advance(1_000)
    expect(buckets.take('a').ok).toBe(true)
  })

  it('says when to come back, in whole seconds rounded up', () => {
    const time = clock()
    const buckets = Buckets.create({ burst: 1, perSecond: 0.25, inFlight: 100 }, { now: time.now })
    expect(buckets.take('a').ok).toBe(true)
    expect(refused(buckets.take('a'))).toBe(4)
    time.advance(1_500)
    // 0.375 of a token is back: 0.625 more takes 2.5 s.
    expect(refused(buckets.take('a'))).toBe(3)
  })

  it('weighs a request worth many: all or nothing, and never more than a full bucket', () => {
    const time = clock()
    const buckets = Buckets.create({ burst: 10, perSecond: 1, inFlight: 100 }, { now: time.now })
    const first = buckets.take('a')
    if (!first.ok) throw new Error('a quiet key should be admitted')
    expect(first.weigh(6)).toEqual({ ok: true })
    // Already paid for: weighing it again takes nothing.
    expect(first.weigh(6)).toEqual({ ok: true })
    const second = buckets.take('a')
    if (!second.ok) throw new Error('4 tokens were left')
    // It owes 5 and 3 are left: refused, and those 3 stay.
    expect(second.weigh(6)).toEqual({ ok: false, retryAfterS: 2 })
    for (let i = 0; i < 3; i++) expect(buckets.take('a').ok).toBe(true)
    expect(buckets.take('a').ok).toBe(false)
    time.advance(60_000)
    const heavy = buckets.take('a')
    if (!heavy.ok) throw new Error('the bucket is full again')
    expect(heavy.weigh(50)).toEqual({ ok: true })
    expect(buckets.take('a').ok).toBe(false)
  })

  it('keeps keys apart', () => {
    const buckets = Buckets.create({ burst: 1, perSecond: 1, inFlight: 100 }, { now: clock().now })
    expect(buckets.take('a').ok).toBe(true)
    expect(buckets.take('a').ok).toBe(false)
    expect(buckets.take('b').ok).toBe(true)
  })

  it('bounds the requests a key holds at once, and frees a slot once, when released', () => {
    const buckets = Buckets.create({ burst: 100, perSecond: 1, inFlight: 2 }, { now: clock().now })
    const first = buckets.take('a')
    const second = buckets.take('a')
    expect(refused(buckets.take('a'))).toBe(1)
    if (!first.ok || !second.ok) throw new Error('the first two should be admitted')
    first.release()
    first.release()
    expect(buckets.take('a').ok).toBe(true)
    expect(buckets.take('a').ok).toBe(false)
  })

  it('never tracks more than maxKeys, forgetting the least recently seen first', () => {
    const time = clock()
    const buckets = Buckets.create(
      { burst: 1, perSecond: 0.001, inFlight: 100 },
      { now: time.now, maxKeys: 3 },
    )
    for (const key of ['a', 'b', 'c']) buckets.take(key)
    buckets.take('a')
    buckets.take('d')
    expect(buckets.size).toBe(3)
    // 'b' was the least recently seen: forgotten, so it starts over with a full bucket.
    expect(buckets.take('b').ok).toBe(true)
    // 'a' was seen again before 'd' arrived, and still remembers it is empty.
    expect(buckets.take('a').ok).toBe(false)
    for (let i = 0; i < 10_000; i++) buckets.take(`flood-${i}`)
    expect(buckets.size).toBe(3)
  })

  it('forgets keys that have gone quiet, so memory follows the active clients', () => {
    const time = clock()
    const buckets = Buckets.create({ burst: 2, perSecond: 1, inFlight: 100 }, { now: time.now })
    for (let i = 0; i < 1_000; i++) {
      const admission = buckets.take(`client-${i}`)
      if (admission.ok) admission.release()
    }
    expect(buckets.size).toBe(1_000)
    time.advance(2_000)
    buckets.take('newcomer')
    expect(buckets.size).toBe(1)
  })

  it('keeps a quiet key that still holds a request, so its count stays right', () => {
    const time = clock()
    const buckets = Buckets.create({ burst: 5, perSecond: 1, inFlight: 1 }, { now: time.now })
    const held = buckets.take('slow')
    time.advance(60_000)
    buckets.take('newcomer')
    expect(buckets.take('slow').ok).toBe(false)
    if (held.ok) held.release()
    expect(buckets.take('slow').ok).toBe(true)
  })
})
