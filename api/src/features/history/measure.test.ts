import { describe, expect, it } from 'vitest'
import { measureCatchUp, measureHistoryRoute } from './measure.ts'

describe('history measurements', () => {
  it('times a catch-up that indexes every mined transfer', async () => {
    const result = await measureCatchUp({ blocks: 20 })
    // Genesis, the token's deployment and mint, then 20 blocks of two transfers each (and the mint's).
    expect(result.blocks).toBe(23)
    expect(result.transfers).toBe(41)
    expect(result.blocksPerSecond).toBeGreaterThan(0)
  })

  it('times the route over every page of an account', async () => {
    const result = await measureHistoryRoute({ rows: 300 })
    expect(result.listed).toBe(300)
    expect(result.requests).toBe(15 + 100)
    expect(result.p50Ms).toBeGreaterThan(0)
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms)
  })
})
