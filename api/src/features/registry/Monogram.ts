/**
 * Generated images for the registry: a rounded square in a colour taken from the name, with the name's
 * initials. Real wallet logos cannot be downloaded here, and a monogram is honest about not being one.
 */
import { createHash } from 'node:crypto'

/**
 * An SVG monogram, deterministic for a name.
 * @example
 * Monogram.svg('Rainbow') // '<svg xmlns="http://www.w3.org/2000/svg" … >R</text></svg>'
 */
export function svg(name: string): string {
  const hash = createHash('sha256').update(name).digest()
  const hue = ((hash[0] ?? 0) * 256 + (hash[1] ?? 0)) % 360
  const text = escapeXml(initials(name))
  const size = text.length > 1 ? 34 : 44
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img"><rect width="96" height="96" rx="22" fill="hsl(${hue} 62% 42%)"/><text x="48" y="48" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${text}</text></svg>`
}

/** Up to two initials: of the first two words, or the first two letters of a single word. */
export function initials(name: string): string {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? ['?']
  const [first = '?', second] = words
  const letters = second ? `${[...first][0]}${[...second][0]}` : [...first].slice(0, 2).join('')
  return letters.toUpperCase()
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
