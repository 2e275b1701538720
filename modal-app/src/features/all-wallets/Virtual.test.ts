import { describe, expect, it } from 'vitest'
import * as Virtual from './Virtual.ts'

describe('Virtual', () => {
  it('renders the rows in view and two either side, with spacers for the rest', () => {
    const at = Virtual.window({ count: 500, columns: 4, stride: 96, scrollTop: 960, viewport: 384 })
    // Rows 10..13 are in view; rows 8..15 are rendered.
    expect(at).toEqual({ start: 32, end: 64, before: 768, after: (125 - 16) * 96 })
  })

  it('holds a bounded number of items wherever the list is scrolled', () => {
    for (const scrollTop of [0, 5_000, 11_904, 50_000]) {
      const at = Virtual.window({ count: 500, columns: 3, stride: 96, scrollTop, viewport: 384 })
      expect(at.end - at.start).toBeLessThanOrEqual(3 * 9)
      expect(at.before + Math.ceil((at.end - at.start) / 3) * 96 + at.after).toBe(Math.ceil(500 / 3) * 96)
    }
  })

  it('ends at the last item of a partial last row', () => {
    const at = Virtual.window({ count: 10, columns: 4, stride: 96, scrollTop: 0, viewport: 384 })
    expect(at).toEqual({ start: 0, end: 10, before: 0, after: 0 })
  })

  it('counts the columns auto-fill lays out', () => {
    // A 360 px card, with and without a classic scrollbar; a narrow phone.
    expect(Virtual.columnsIn(326, 68, 8)).toBe(4)
    expect(Virtual.columnsIn(311, 68, 8)).toBe(4)
    expect(Virtual.columnsIn(280, 68, 8)).toBe(3)
    expect(Virtual.columnsIn(0, 68, 8)).toBe(1)
  })

  it('scrolls as little as needed to show an item', () => {
    const layout = { columns: 4, stride: 96, scrollTop: 960, viewport: 384 }
    expect(Virtual.scrollTo(41, layout)).toBe(960)
    expect(Virtual.scrollTo(0, layout)).toBe(0)
    expect(Virtual.scrollTo(499, layout)).toBe(124 * 96 + 96 - 384)
  })
})
