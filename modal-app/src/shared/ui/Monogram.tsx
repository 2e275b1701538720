import { hash } from './Identicon.tsx'

/**
 * A picture drawn here where a network or a token has no icon (or its icon fails to load): its initial on
 * a disc whose hue comes from `seed` (a chain id, a token's address), so two with one initial still look
 * apart and nothing is fetched from anyone. Decorative: a name is beside it.
 */
export function Monogram({
  seed,
  name,
  size,
  className,
  ...data
}: {
  seed: string
  name: string
  size: number
  className: string
  /** What the picture stands for, for tests and styles (`data-chain`). */
  [attribute: `data-${string}`]: string
}) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" {...data}>
      <circle cx="12" cy="12" r="12" fill={`hsl(${hash(seed) % 360} 55% 38%)`} />
      <text x="12" y="16" textAnchor="middle" fontSize="12" fontWeight="600" fill="#fff">
        {[...name][0]?.toUpperCase()}
      </text>
    </svg>
  )
}
