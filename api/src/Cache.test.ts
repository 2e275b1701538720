import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as Cache from './Cache.ts'
import type { Database } from './Database.ts'
import { memoryDatabase } from './internal/memoryDatabase.ts'

/** A computation that ends when the test says so, counting its starts. */
function reads() {
  const ends: ((value: number) => void)[] = []
  const compute = () =>
    new Promise<number>((resolve) => {
      ends.push(resolve)
    })
  return {
    compute,
    ends,
    get started() {
      return ends.length
    },
  }
}

describe('cache', () => {
  let db: Database
  beforeAll(async () => {
    db = await memoryDatabase()
  })
  afterAll(() => db?.close())

  it('computes once for every request that asks while the value is being computed', async () => {
    const cache = Cache.create(db, Date.now)
    const read = reads()
    const answers = Promise.all([1, 2, 3].map(() => cache.remember('k1', 60_000, read.compute)))
    await vi.waitFor(() => expect(read.started).toBe(1))
    read.ends[0]?.(7)
    // A second computation would never end, and the answers with it.
    expect(await answers).toEqual([7, 7, 7])
    // Stored: a later request reads it without computing.
    expect(await cache.remember('k1', 60_000, read.compute)).toBe(7)
    expect(read.started).toBe(1)
  })

  it('answers a fresh request with a computation that started after it arrived: one for all that came meanwhile', async () => {
    const cache = Cache.create(db, Date.now)
    const read = reads()
    const first = cache.remember('k2', 60_000, read.compute, true)
    const later = Promise.all([1, 2].map(() => cache.remember('k2', 60_000, read.compute, true)))
    // A request that takes a cached value takes the one under way.
    const cached = cache.remember('k2', 60_000, read.compute)
    expect(read.started).toBe(1)
    read.ends[0]?.(1)
    expect(await first).toBe(1)
    expect(await cached).toBe(1)
    await vi.waitFor(() => expect(read.started).toBe(2))
    read.ends[1]?.(2)
    expect(await later).toEqual([2, 2])
  })

  it('forgets a failed computation: the next request computes again', async () => {
    const cache = Cache.create(db, Date.now)
    await expect(cache.remember('k3', 60_000, () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    )
    expect(await cache.remember('k3', 60_000, async () => 3)).toBe(3)
  })
})
