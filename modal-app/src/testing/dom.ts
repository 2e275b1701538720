/**
 * Where a component test renders: a fresh element in the document for each test of the file, with React's
 * root on it, unmounted and removed after the test. The file runs in jsdom (`// @vitest-environment jsdom`).
 */
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach } from 'vitest'

// React's `act` warns unless the environment says it is a test's.
Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

/**
 * @example
 * const dom = mounted()
 * it('…', () => { act(() => dom.root.render(<Buy … />)); expect(dom.host.textContent).toBe('…') })
 */
export function mounted(): { readonly host: HTMLElement; readonly root: Root } {
  let host: HTMLElement | undefined
  let root: Root | undefined
  beforeEach(() => {
    host = document.createElement('div')
    document.body.append(host)
    root = createRoot(host)
  })
  afterEach(() => {
    const mounted = root
    if (mounted) act(() => mounted.unmount())
    host?.remove()
  })
  const during = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('Rendered outside a test')
    return value
  }
  return {
    get host() {
      return during(host)
    },
    get root() {
      return during(root)
    },
  }
}
