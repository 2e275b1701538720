/**
 * The card's height, in one move per view change. The card takes its content's measured height explicitly,
 * so CSS can animate between two numbers (`auto` cannot be animated); a view still loading its chunk keeps
 * the previous height, so the card moves once, to the view that arrives, instead of twice through the
 * loading placeholder. A hidden frame lays nothing out and measures 0: that is kept out too.
 */
import { type RefObject, useLayoutEffect, useState } from 'react'

export function useCardHeight(content: RefObject<HTMLElement | null>, enabled: boolean): number | undefined {
  const [height, setHeight] = useState<number>()
  const measure = () => {
    const element = content.current
    const card = element?.closest<HTMLElement>('.card')
    if (!enabled || !element || !card) return
    if (element.offsetHeight === 0 || element.querySelector('.view-loading')) return
    // The card's borders are outside its content; its own max-height caps the rest (then it scrolls).
    setHeight(element.offsetHeight + card.offsetHeight - card.clientHeight)
  }
  // After every render (a view may replace its placeholder at the same size), and on every resize after
  // (an image, a lazily loaded part).
  useLayoutEffect(measure)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the observer outlives renders; `measure` reads refs only.
  useLayoutEffect(() => {
    const element = content.current
    if (!enabled || !element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => measure())
    observer.observe(element)
    return () => observer.disconnect()
  }, [content, enabled])
  return height
}
