import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Identicon, identiconOf } from './Identicon.tsx'

const checksummed = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const solana = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const bitcoin = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'

const render = (address: string, size?: number, label?: string) =>
  renderToStaticMarkup(<Identicon address={address} size={size} label={label} />)

describe('Identicon', () => {
  it('draws the same picture for the same address', () => {
    expect(render(checksummed, 56)).toBe(render(checksummed, 56))
    expect(render(solana)).toBe(render(solana))
  })

  it('draws a checksummed EVM address and its lower-case form alike', () => {
    expect(render(checksummed)).toBe(render(checksummed.toLowerCase()))
    expect(render(checksummed)).toBe(render(`0x${checksummed.slice(2).toUpperCase()}`))
  })

  it('tells case apart where the address format does (base58)', () => {
    expect(render(solana)).not.toBe(render(solana.toLowerCase()))
  })

  it('draws different addresses differently', () => {
    const addresses = [
      checksummed,
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      solana,
      bitcoin,
      // Neighbours: one character apart.
      ...Array.from({ length: 200 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`),
    ]
    const pictures = new Set(addresses.map((address) => render(address)))
    expect(pictures.size).toBe(addresses.length)
  })

  it('is a mirrored 5×5 grid in two colours', () => {
    for (const address of [checksummed, solana, bitcoin]) {
      const { cells, fill, background } = identiconOf(address)
      const filled = new Set(cells.map(([x, y]) => `${x},${y}`))
      for (const [x, y] of cells) {
        expect(x >= 0 && x < 5 && y >= 0 && y < 5).toBe(true)
        expect(filled.has(`${4 - x},${y}`)).toBe(true)
      }
      expect(fill).toMatch(/^hsl\(\d+,\d+%,\d+%\)$/)
      expect(background).toMatch(/^hsl\(\d+,60%,90%\)$/)
      expect(fill).not.toBe(background)
    }
  })

  it('is only an SVG: no image, link, style or script, nothing to fetch', () => {
    const html = render(bitcoin, 32)
    expect(html).toMatch(
      /^<svg [^>]*><rect [^>]*><\/rect>(<path d="[Mhvz0-9 -]+" fill="[^"]+"><\/path>)?<\/svg>$/,
    )
    expect(html).not.toMatch(/href|url\(|<image|<script|<style|<foreignObject|http/i)
    expect(html).toContain('width="32"')
    expect(html).toContain('height="32"')
  })

  it('is hidden from assistive technology unless it is given a name', () => {
    expect(render(checksummed)).toContain('aria-hidden="true"')
    expect(render(checksummed)).not.toContain('role=')
    const named = render(checksummed, 40, 'Your account')
    expect(named).toContain('role="img"')
    expect(named).toContain('aria-label="Your account"')
    expect(named).not.toContain('aria-hidden')
  })
})
