/**
 * Origin allow-lists. A pattern is an exact origin (`https://app.example`), or one with a `*` port
 * (`http://localhost:*`) or a `*.` subdomain (`https://*.example`).
 */

const patternSyntax = /^(https?):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}|\*))?$/i

/**
 * @example
 * Origin.matches('http://localhost:*', 'http://localhost:5173') // true
 */
export function matches(pattern: string, origin: string): boolean {
  const target = parseOrigin(origin)
  const parts = patternSyntax.exec(pattern)
  if (!target || !parts) return false
  const [, scheme, wildcard, host = '', port] = parts
  if (target.protocol !== `${scheme?.toLowerCase()}:`) return false
  if (port !== '*' && target.port !== defaultless(target.protocol, port)) return false
  const hostname = host.toLowerCase()
  if (wildcard) return target.hostname.endsWith(`.${hostname}`)
  return target.hostname === hostname
}

/** True when any pattern in the list matches. Opaque (`'null'`) origins never match. */
export function isAllowed(patterns: readonly string[], origin: string): boolean {
  return patterns.some((pattern) => matches(pattern, origin))
}

function parseOrigin(origin: string): URL | undefined {
  if (typeof origin !== 'string' || origin === 'null') return undefined
  try {
    const url = new URL(origin)
    return url.origin === origin ? url : undefined
  } catch {
    return undefined
  }
}

// URL drops a scheme's default port, so `https://a:443` and `https://a` are the same origin.
function defaultless(protocol: string, port: string | undefined): string {
  if (port === undefined) return ''
  if ((protocol === 'http:' && port === '80') || (protocol === 'https:' && port === '443')) return ''
  return port
}
