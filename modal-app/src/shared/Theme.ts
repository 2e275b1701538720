/**
 * Light/dark mode and the host's theme variables. Variables end up in a style attribute, so only
 * `--airlock-*` custom properties whose value has one of a few known shapes get through: a colour, a
 * length, a font-family list or a z-index. An allow-list, because CSS keeps growing ways to load a URL
 * (`url(`, `image-set(`, `src(`) or escape a declaration, and a deny-list would miss the next one.
 */

const keyPattern = /^--airlock-[a-z0-9-]{1,48}$/

const allowed: readonly RegExp[] = [
  // Colours: #hex, rgb()/rgba()/hsl()/hsla() of numbers, and named colours.
  /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i,
  /^(?:rgba?|hsla?)\([0-9.%,\s/]+\)$/i,
  /^[a-z]+$/i,
  // Lengths, and durations (`--airlock-motion-duration`).
  /^-?(?:\d+\.?\d*|\.\d+)(?:px|rem|em|%|ms|s)$/i,
  // Font-family lists: `"Inter", system-ui, sans-serif`.
  /^[a-z0-9\s,"'-]+$/i,
  // z-index.
  /^-?\d+$/,
]

// Kept although no allowed shape can contain them: the allow-list may grow, these must never pass.
const forbidden = /url\(|image-set\(|src\(|[\\;{}]/i

/** Whether a theme value has an allowed shape and nothing that loads or escapes. */
function isSafeValue(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const trimmed = value.trim()
  if (trimmed.length === 0 || trimmed.length > 200 || forbidden.test(trimmed)) return false
  return allowed.some((pattern) => pattern.test(trimmed))
}

/**
 * The host's variables that are safe to apply; the rest are dropped with a console warning.
 * @example Theme.sanitize({ '--airlock-accent': '#f60', color: 'red' }) // { '--airlock-accent': '#f60' }
 */
export function sanitize(
  variables: Readonly<Record<string, string>> | undefined,
  warn: (message: string) => void = (message) => console.warn(message),
): Record<string, string> {
  const safe: Record<string, string> = {}
  for (const [key, value] of Object.entries(variables ?? {})) {
    if (!keyPattern.test(key) || !isSafeValue(value)) {
      warn(`[airlock] Theme variable ${key} is ignored.`)
      continue
    }
    safe[key] = value.trim()
  }
  return safe
}

/** Applies mode and variables to the document root. Without a mode the stylesheet follows the system. */
export function apply(
  root: HTMLElement,
  options: { mode?: 'light' | 'dark' | undefined; variables?: Readonly<Record<string, string>> | undefined },
  /** The visitor's preference, followed while the host names no mode. @default prefers-color-scheme: dark */
  prefersDark: Pick<MediaQueryList, 'matches' | 'addEventListener'> | undefined = globalThis.matchMedia?.(
    '(prefers-color-scheme: dark)',
  ),
): void {
  for (const [key, value] of Object.entries(sanitize(options.variables))) root.style.setProperty(key, value)
  if (options.mode) {
    root.dataset.theme = options.mode
    return
  }
  // One dark palette in the CSS, chosen here: the stylesheet then needs no media-query copy of it.
  const follow = () => {
    root.dataset.theme = prefersDark?.matches ? 'dark' : 'light'
  }
  follow()
  prefersDark?.addEventListener('change', follow)
}
