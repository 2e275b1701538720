/**
 * Placeholders for what a view waits for: each stands in a line of the element its data will fill, with the
 * same classes around it, so the data takes the very box the placeholder held and nothing below moves. They
 * are hidden from screen readers; the region that waits says so with `aria-busy`.
 */
import './Skeleton.css'

/** A line of text to come, `width` wide, as tall as the line it sits in. */
export function SkeletonText({ width }: { width: string }) {
  return (
    <span className="skeleton" style={{ inlineSize: width }}>
      {'\u00a0'}
    </span>
  )
}

/** A round picture to come (a token's icon), `size` px across. */
export function SkeletonIcon({ size }: { size: number }) {
  return <span className="skeleton skeleton-icon" style={{ inlineSize: size, blockSize: size }} />
}

/**
 * Two lines to come, one over the other, in an element of the data's `className` (a row's column); the second
 * in the class of the quieter line under it (`under`: muted, a status).
 */
export function SkeletonLines({
  className,
  under,
  widths: [first, second],
}: {
  className: string
  under: string
  widths: [string, string]
}) {
  return (
    <span className={className}>
      <SkeletonText width={first} />
      <span className={under}>
        <SkeletonText width={second} />
      </span>
    </span>
  )
}
