/** Wallet icons as base64 SVG data URIs: both EIP-6963 and the Wallet Standard require data URIs. */

export type SvgDataUri = `data:image/svg+xml;base64,${string}`

function svgDataUri(svg: string): SvgDataUri {
  // btoa exists in browsers and Node >= 16; the SVGs below are ASCII-only, so btoa is safe.
  return `data:image/svg+xml;base64,${btoa(svg)}`
}

function badge(background: string, letter: string): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">',
    `<rect width="96" height="96" rx="20" fill="${background}"/>`,
    `<text x="48" y="64" font-family="sans-serif" font-size="48" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text>`,
    '</svg>',
  ].join('')
}

export const evmIcon: SvgDataUri = svgDataUri(badge('#3b5bdb', 'E'))
export const solanaIcon: SvgDataUri = svgDataUri(badge('#7b2ff7', 'S'))
export const bitcoinIcon: SvgDataUri = svgDataUri(badge('#f7931a', 'B'))
