/**
 * Light/dark mode and the host's theme variables. Variables end up in a style attribute, so only
 * `--airlock-*` custom properties with inert values get through: no `url(` (no requests the user did not
 * ask for), no `;`, `{`, `}` (no breaking out of the declaration) and no `\` (no escapes spelling those).
 */

const keyPattern = /^--airlock-[a-z0-9-]{1,48}$/
const forbidden = /url\(|[;{}\\<>]|expression\(|@import/i

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
    // Whitespace inside a function name (`url (`) is not valid CSS, but comments are: strip them first.
    const compact = value.replace(/\/\*.*?\*\//g, '').replace(/\s+/g, '')
    if (
      !keyPattern.test(key) ||
      typeof value !== 'string' ||
      forbidden.test(compact) ||
      forbidden.test(value)
    ) {
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
): void {
  if (options.mode) root.dataset.theme = options.mode
  for (const [key, value] of Object.entries(sanitize(options.variables))) root.style.setProperty(key, value)
}
