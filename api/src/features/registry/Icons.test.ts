import { describe, expect, it } from 'vitest'
import { isPlainSvg, maxBytes, shipped } from './Icons.ts'
import * as Registry from './Registry.ts'

const svg = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"${attributes}>${inner}</svg>`

describe('shipped wallet icons', () => {
  it('are the popular wallets’ own, every one a plain picture of a wallet the registry lists', () => {
    const icons = shipped()
    const names = new Set(Registry.listings().map((listing) => listing.name))
    expect(icons.size).toBe(17)
    for (const [name, icon] of icons) {
      expect(names.has(name), name).toBe(true)
      expect(new TextEncoder().encode(icon).length, name).toBeLessThan(5_000)
    }
    for (const name of ['MetaMask', 'Rainbow', 'Coinbase Wallet', 'Phantom', 'Trust Wallet'])
      expect(icons.has(name), name).toBe(true)
  })
})

describe('isPlainSvg', () => {
  it('takes shapes, gradients and references to its own ids', () => {
    expect(
      isPlainSvg(svg('<path d="M0 0h28v28H0z" fill="url(#a)"/><defs><linearGradient id="a"/></defs>')),
    ).toBe(true)
  })

  it('refuses scripts, handlers, embedded documents and images, style sheets and outside references', () => {
    for (const bad of [
      svg('<script>alert(1)</script>'),
      svg('<path d="M0 0"/>', ' onload="alert(1)"'),
      svg('<foreignObject><iframe src="https://example.com"/></foreignObject>'),
      svg('<image href="https://example.com/track.png"/>'),
      svg('<use href="https://example.com/sprite.svg#a"/>'),
      svg('<style>@import url(https://example.com/a.css)</style>'),
      svg('<path d="M0 0" fill="url(https://example.com/a.svg#g)"/>'),
      svg('<a href="javascript:alert(1)"><path d="M0 0"/></a>'),
      '<html><svg></svg></html>',
      svg(`<path d="${'M0 0'.repeat(maxBytes / 4)}"/>`),
    ])
      expect(isPlainSvg(bad), bad.slice(0, 80)).toBe(false)
  })
})
