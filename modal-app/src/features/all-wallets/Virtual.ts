/**
 * The rows of a grid worth rendering: those in the scroll viewport, plus a few either side so a fast scroll
 * or a keyboard step never shows a blank row. The rest is one spacer above and one below, so the scrollbar
 * measures the whole list while the DOM holds a few dozen items, whatever the registry's size.
 */

export type Window = {
  /** The first item rendered, and one past the last. */
  start: number
  end: number
  /** The heights, in px, that stand in for the rows above and below. */
  before: number
  after: number
}

export type Layout = {
  count: number
  columns: number
  /** A row's height plus the gap under it. */
  stride: number
  scrollTop: number
  viewport: number
  /** Rows rendered beyond the viewport on each side. @default 2 */
  overscan?: number
}

/** @example Virtual.window({ count: 400, columns: 4, stride: 96, scrollTop: 0, viewport: 384 }) // items 0..24 */
export function window(layout: Layout): Window {
  const { count, stride, overscan = 2 } = layout
  const columns = Math.max(1, layout.columns)
  const rows = Math.ceil(count / columns)
  const first = Math.min(rows, Math.max(0, Math.floor(layout.scrollTop / stride) - overscan))
  const last = Math.min(rows, Math.ceil((layout.scrollTop + layout.viewport) / stride) + overscan)
  const to = Math.max(first, last)
  return {
    start: first * columns,
    end: Math.min(count, to * columns),
    before: first * stride,
    after: (rows - to) * stride,
  }
}

/** How many columns `repeat(auto-fill, minmax(min, 1fr))` lays out in `width`. */
export function columnsIn(width: number, min: number, gap: number): number {
  return Math.max(1, Math.floor((width + gap) / (min + gap)))
}

/** The scroll position that shows `index`'s row, moving as little as possible from `scrollTop`. */
export function scrollTo(index: number, layout: Omit<Layout, 'count' | 'overscan'>): number {
  const top = Math.floor(index / Math.max(1, layout.columns)) * layout.stride
  if (top < layout.scrollTop) return top
  const bottom = top + layout.stride
  if (bottom > layout.scrollTop + layout.viewport) return bottom - layout.viewport
  return layout.scrollTop
}
