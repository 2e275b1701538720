/**
 * A picture for an address that has none of its own: a 5×5 grid, mirrored left to right, whose cells and
 * colours come from a hash of the address. Drawn here as inline SVG, so it costs no request and no
 * dependency, and the same address always gets the same picture.
 */

/** EVM addresses are hex, so `0xAb…` (checksummed) and `0xab…` are one address; base58 and bech32 are not. */
function normalized(address: string): string {
  return /^0x[0-9a-f]{40}$/i.test(address) ? address.toLowerCase() : address
}

/** FNV-1a over the UTF-16 code units, then mixed, so that neighbouring addresses spread apart. */
export function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** The cells (x, y) that are filled, and the two colours, of an address's picture. */
export function identiconOf(address: string): {
  cells: [number, number][]
  fill: string
  background: string
} {
  const text = normalized(address)
  const bits = hash(text)
  // A second hash for the colours, so the pattern and the hue do not move together.
  const tone = hash(`${text}#`)
  const hue = tone % 360
  const cells: [number, number][] = []
  // 15 bits: the left 3 columns of 5 rows; columns 3 and 4 mirror columns 1 and 0.
  for (let y = 0; y < 5; y++)
    for (let x = 0; x < 3; x++) {
      if (!((bits >>> (y * 3 + x)) & 1)) continue
      cells.push([x, y])
      if (x < 2) cells.push([4 - x, y])
    }
  return {
    cells,
    fill: `hsl(${hue},${55 + ((tone >>> 9) % 25)}%,${38 + ((tone >>> 14) % 14)}%)`,
    background: `hsl(${(hue + 180 + ((tone >>> 19) % 60)) % 360},60%,90%)`,
  }
}

/**
 * An address's identicon. Decorative unless given a `label` (the address is written beside it).
 * @example <Identicon address="0xf39F…2266" size={56} />
 */
export function Identicon({
  address,
  size = 40,
  label,
  className,
}: {
  address: string
  /** Width and height in CSS pixels. @default 40 */
  size?: number
  /** Its accessible name; without one it is hidden from assistive technology. */
  label?: string | undefined
  className?: string | undefined
}) {
  const { cells, fill, background } = identiconOf(address)
  const path = cells.map(([x, y]) => `M${x} ${y}h1v1h-1z`).join('')
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 5 5"
      shapeRendering="crispEdges"
      focusable="false"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <rect width="5" height="5" fill={background} />
      {path && <path d={path} fill={fill} />}
    </svg>
  )
}
