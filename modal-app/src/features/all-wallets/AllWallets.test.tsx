// @vitest-environment jsdom
import { act } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Listing } from '../../api/Api.ts'
import { mounted } from '../../testing/dom.ts'
import AllWallets from './AllWallets.tsx'
import { monogram } from './WalletImage.tsx'
import type { WalletRegistry } from './WalletRegistry.ts'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

const count = 600
const listings: Listing[] = Array.from({ length: count }, (_, i) => ({
  id: `wallet-${i}`,
  name: `Wallet ${i}`,
  image_id: `image-${i}`,
  chains: [],
}))

// The view reads the registry's state; its paging and search run against the real API in WalletRegistry.test.ts.
const registry = {
  state: () => ({ search: '', items: listings, count, loading: false, done: true, failed: false }),
  more: vi.fn(),
  search: vi.fn(),
} as unknown as WalletRegistry
const ui = {
  connectWalletConnect: vi.fn(),
  showAllWallets: vi.fn(),
  imageUrl: () => 'data:image/png;base64,',
}

const dom = mounted()
beforeEach(() => {
  act(() => dom.root.render(<AllWallets snapshot={{ registry } as never} ui={ui as never} />))
})

const buttons = () => [...dom.host.querySelectorAll<HTMLButtonElement>('.grid-item')]
const focusedIndex = () => Number((document.activeElement as HTMLElement).dataset.index)
const press = (key: string) =>
  act(() => {
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
  })

describe('AllWallets', () => {
  it('keeps a bounded number of wallets in the DOM for hundreds in the list', () => {
    expect(buttons().length).toBeGreaterThan(0)
    expect(buttons().length).toBeLessThanOrEqual(40)
    const first = dom.host.querySelector('li')
    expect(first?.getAttribute('aria-setsize')).toBe(String(count))
    expect(first?.getAttribute('aria-posinset')).toBe('1')
  })

  it('reaches every wallet by keyboard, rendering the rows it moves to', () => {
    act(() => buttons()[0]?.focus())
    press('ArrowRight')
    expect(focusedIndex()).toBe(1)
    press('ArrowDown')
    // 4 columns in the 326 px a 360 px card leaves.
    expect(focusedIndex()).toBe(5)
    press('End')
    expect(focusedIndex()).toBe(count - 1)
    expect(document.activeElement?.textContent).toBe(`Wallet ${count - 1}`)
    expect(buttons().length).toBeLessThanOrEqual(40)
    press('ArrowUp')
    expect(focusedIndex()).toBe(count - 5)
    press('Home')
    expect(focusedIndex()).toBe(0)
  })

  it('shows a monogram until the image loads, on a colour of the name', () => {
    const image = dom.host.querySelector('.wallet-image')
    expect(image?.getAttribute('data-initials')).toBe('W0')
    // Drawn by CSS: the button's text is the wallet's name alone.
    expect(image?.textContent).toBe('')
    expect(monogram('Trust Wallet')).toEqual({ initials: 'TW', hue: monogram('Trust Wallet').hue })
    expect(monogram('Trust Wallet').hue).not.toBe(monogram('Rainbow').hue)
    expect(monogram('MetaMask').initials).toBe('M')
  })
})
