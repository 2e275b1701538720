/**
 * The popular wallets' own icons, shipped with the registry (`wallet-icons.json`: each wallet's SVG as
 * RainbowKit's MIT-licensed package bundles it, with that licence beside them). A wallet without one keeps
 * its generated monogram.
 *
 * An icon is stored only if it is a small, plain picture: the modal shows it through `<img src>` (where
 * SVG runs nothing) and the API serves it under a sandboxing CSP, but an icon that scripts, embeds
 * another document or fetches from elsewhere has no business in the registry, whoever edits the file.
 */
import { readFileSync } from 'node:fs'

/** The most an icon may weigh: the shipped ones are under 5 KB. */
export const maxBytes = 8 * 1024

type Shipped = { source: string; license: string; icons: Record<string, string> }

/** Each shipped icon by the wallet's registry name; those that are not plain pictures are left out. */
export function shipped(): Map<string, string> {
  const file = JSON.parse(readFileSync(new URL('./wallet-icons.json', import.meta.url), 'utf8')) as Shipped
  return new Map(Object.entries(file.icons).filter(([, svg]) => isPlainSvg(svg)))
}

/**
 * Whether `svg` is one small SVG picture: no script, event handler, embedded document or image, style
 * sheet import, and no reference outside itself (an `href` or `url()` names its own `#id` only).
 * @example isPlainSvg('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1"/></svg>') // true
 */
export function isPlainSvg(svg: string): boolean {
  if (new TextEncoder().encode(svg).length > maxBytes) return false
  if (!/^<svg[\s>]/.test(svg.trimStart()) || !svg.trimEnd().endsWith('</svg>')) return false
  if (/<(script|foreignObject|iframe|object|embed|image|use|style)\b/i.test(svg)) return false
  if (/\son[a-z]+\s*=/i.test(svg) || /javascript:|@import/i.test(svg)) return false
  const hrefs = [...svg.matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)].map((match) => match[1] ?? '')
  const urls = [...svg.matchAll(/url\(\s*["']?([^"')]*)/gi)].map((match) => match[1] ?? '')
  return [...hrefs, ...urls].every((target) => target.startsWith('#'))
}
