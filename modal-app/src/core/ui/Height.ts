/**
 * The card's height, in one move per view change. The card takes its content's measured height explicitly,
 * so CSS can animate between two numbers (`auto` cannot be animated). A view that is not ready yet (its
 * chunk loading, or a part of it marked `aria-busy`) keeps the previous height for up to a second after the
 * change, so the card moves once, to the view as it ends up, instead of through each placeholder; a view
 * busy for longer (a wait on the wallet) is measured as it is. A frame hidden with display:none (an older
 * host SDK's closed dialog, or the page's own CSS) lays nothing out and measures 0: that is kept out too.
 */
import { type RefObject, useLayoutEffect, useRef, useState } from 'react'

/** How long a view still loading may keep the previous view's height. */
const readyWaitMs = 1_000

const notReady = '.view-loading, [aria-busy="true"]'

export function useCardHeight(
  content: RefObject<HTMLElement | null>,
  view: string,
  enabled: boolean,
): number | undefined {
  const [height, setHeight] = useState<number>()
  const changed = useRef({ view, at: 0 })
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  if (changed.current.view !== view) changed.current = { view, at: performance.now() }

  const measure = () => {
    const element = content.current
    const card = element?.closest<HTMLElement>('.card')
    if (!enabled || !element || !card || element.offsetHeight === 0) return
    const waiting = readyWaitMs - (performance.now() - changed.current.at)
    if (height !== undefined && waiting > 0 && element.querySelector(notReady)) {
      clearTimeout(timer.current)
      timer.current = setTimeout(() => latest.current(), waiting)
      return
    }
    // The card's borders are outside its content; its own max-height caps the rest (then it scrolls).
    setHeight(element.offsetHeight + card.offsetHeight - card.clientHeight)
  }
  const latest = useRef(measure)
  latest.current = measure

  // After every render (a view may replace its placeholder at the same size), and on every resize after
  // (an image, a lazily loaded part).
  useLayoutEffect(() => latest.current())
  useLayoutEffect(() => {
    const element = content.current
    if (!enabled || !element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => latest.current())
    observer.observe(element)
    return () => {
      observer.disconnect()
      clearTimeout(timer.current)
    }
  }, [content, enabled])
  return height
}
