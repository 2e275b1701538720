import { useState } from 'react'
import { Monogram } from './Monogram.tsx'

/**
 * A choice's picture: an image (a token's from the API's registry, a custom network's own) or, without
 * one, the monogram `seed` picks a hue for. An image that fails to load gives way to the monogram.
 */
export type Icon = { url?: string | undefined; seed: string }

/** Decorative: the choice's name is beside it. */
export function ChoiceIcon({ icon, name, size }: { icon: Icon; name: string; size: number }) {
  const [failed, setFailed] = useState<string>()
  if (icon.url && failed !== icon.url)
    return (
      <img
        className="choice-icon"
        src={icon.url}
        alt=""
        width={size}
        height={size}
        referrerPolicy="no-referrer"
        onError={() => setFailed(icon.url)}
      />
    )
  return <Monogram className="choice-icon" seed={icon.seed} name={name} size={size} />
}
