import { useEffect, useState } from 'react'

/** How long an image may take before its monogram stands in for good (docs/behaviour.md §9: image preload time-out). */
export const imageTimeoutMs = 2_000

/**
 * A registry wallet's image, loaded lazily over its monogram: the initials on a colour derived from the
 * name show at once and stay when the image fails or has not arrived within the registry's 2 s preload
 * time-out (docs/behaviour.md §9), so a slow image host never leaves a hole or moves the layout.
 */
export function WalletImage({ url, name, size }: { url: string; name: string; size: number }) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading')
  useEffect(() => {
    if (state !== 'loading') return
    const timer = setTimeout(() => setState('failed'), imageTimeoutMs)
    return () => clearTimeout(timer)
  }, [state])
  const { initials, hue } = monogram(name)
  return (
    // The initials are drawn by CSS from an attribute: they are no part of the button's text.
    <span
      className="wallet-image"
      aria-hidden="true"
      data-initials={state === 'loaded' ? undefined : initials}
      style={{ inlineSize: size, blockSize: size, fontSize: size * 0.4, background: `hsl(${hue} 45% 30%)` }}
    >
      {state !== 'failed' && (
        <img
          src={url}
          alt=""
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          data-loaded={state === 'loaded'}
          onLoad={() => setState('loaded')}
          onError={() => setState('failed')}
        />
      )}
    </span>
  )
}

/**
 * Up to two initials (of the first two words) and a hue from the name, the same
 * for the same name everywhere.
 * @example monogram('Trust Wallet') // { initials: 'TW', hue: … }
 */
export function monogram(name: string): { initials: string; hue: number } {
  const words = name
    .trim()
    .split(/[\s._-]+/u)
    .filter(Boolean)
  const letters = words
    .slice(0, 2)
    .map((word) => [...word][0])
    .join('')
  let hash = 0
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  return { initials: letters.toUpperCase() || '?', hue: hash % 360 }
}
