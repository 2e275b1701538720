import type { ReactNode } from 'react'
import { encode } from 'uqr'

/**
 * A QR code drawn here as one SVG path: crisp at any size, nothing but geometry reaches the DOM, and no QR
 * service learns what it encodes. `ecc` Q survives a mark drawn over the centre (`centre`, in module units
 * of the code's `size`).
 */
export function QrCode({
  text,
  label,
  ecc = 'M',
  centre,
}: {
  text: string
  label: string
  ecc?: 'M' | 'Q'
  centre?: (size: number) => ReactNode
}) {
  const { data, size } = encode(text, { ecc, border: 2 })
  let path = ''
  for (const [y, row] of data.entries())
    for (const [x, dark] of row.entries()) if (dark) path += `M${x} ${y}h1v1h-1z`
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
      {centre?.(size)}
    </svg>
  )
}
