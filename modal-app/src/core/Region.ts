/**
 * Where Buy and Swap say they are unavailable: the visitor's time zone, as the browser reports it, among the
 * host's `restrictedTimeZones`, by default mainland China's, Hong Kong's and Macau's, where the on-ramp
 * providers and swap venues a deployment signs up with do not serve visitors (docs/behaviour.md §9). A time
 * zone is a hint, not a border: it decides what the modal offers, never what the API allows.
 */
import { type ComponentType, createElement, lazy } from 'react'

export const defaultRestrictedTimeZones: readonly string[] = [
  'Asia/Shanghai',
  'Asia/Urumqi',
  'Asia/Chongqing',
  'Asia/Harbin',
  'Asia/Kashgar',
  'Asia/Hong_Kong',
  'Asia/Macau',
  'Asia/Macao',
]

/** The browser's IANA time zone; undefined where it reports none. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/**
 * Whether `timeZone` is one of `zones` (any case).
 * @example restricted(config.restrictedTimeZones)
 */
export function restricted(
  zones: readonly string[] = defaultRestrictedTimeZones,
  timeZone: string | undefined = browserTimeZone(),
): boolean {
  const zone = timeZone?.toLowerCase()
  return zone !== undefined && zones.some((candidate) => candidate.toLowerCase() === zone)
}

/**
 * A view that says `message` in place of a feature's own, loaded as lazily as the view it replaces.
 * @example component: unavailable(async () => (await import('./texts.ts')).swapTexts.region)
 */
export function unavailable<Props extends object>(message: () => Promise<string>): ComponentType<Props> {
  return lazy(async () => {
    const [{ Unavailable }, text] = await Promise.all([import('../shared/ui/Unavailable.tsx'), message()])
    return { default: (_: Props) => createElement(Unavailable, { message: text }) }
  })
}
