/**
 * RFC 3986's generic syntax, the parts EIP-4361 names: `authority` (the domain), `URI` (the URI and each
 * resource), `scheme` and `pchar` (the request id). Checked against the grammar itself — character sets,
 * percent-encoding, IP literals — rather than by a URL parser, which repairs what it is given.
 * @see https://www.rfc-editor.org/rfc/rfc3986#appendix-A
 */

// Each production is unreserved / pct-encoded / sub-delims and a few characters of its own.
const of = (extra: string) => new RegExp(`^(?:[A-Za-z0-9\\-._~!$&'()*+,;=${extra}]|%[0-9A-Fa-f]{2})*$`)
const regName = of('')
const userinfo = of(':')
const pchars = of(':@')
const path = of(':@/')
const queryOrFragment = of(':@/?')
const ipvFuture = /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/
const h16 = /^[0-9A-Fa-f]{1,4}$/
const decOctet = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/** `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` */
export const isScheme = (value: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*$/.test(value)

/** `*pchar`, EIP-4361's `request-id`. */
export const isPchars = (value: string): boolean => pchars.test(value)

/** An authority split in its parts, or why it is none. */
export type Authority = { userinfo?: string; host: string; port?: string }

/**
 * `authority = [ userinfo "@" ] host [ ":" port ]`, each part to its grammar.
 * @returns the parts, or a reason naming the part that breaks the grammar
 */
export function parseAuthority(value: string): Authority | string {
  const at = value.lastIndexOf('@')
  const authority: Authority = { host: '' }
  if (at >= 0) {
    authority.userinfo = value.slice(0, at)
    if (!userinfo.test(authority.userinfo))
      return `its userinfo "${authority.userinfo}" holds a character RFC 3986 does not allow there, or a bad percent-encoding`
  }
  const hostPort = value.slice(at + 1)
  let rest: string
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']')
    if (close < 0) return 'its IP literal has no closing "]"'
    authority.host = hostPort.slice(0, close + 1)
    rest = hostPort.slice(close + 1)
    const literal = authority.host.slice(1, -1)
    if (!isIpv6(literal) && !ipvFuture.test(literal))
      return `its host "${authority.host}" is neither an IPv6 address nor an IPvFuture literal`
  } else {
    const colon = hostPort.indexOf(':')
    authority.host = colon < 0 ? hostPort : hostPort.slice(0, colon)
    rest = colon < 0 ? '' : hostPort.slice(colon)
    // An IPv4 address is a registered name too, so this one grammar covers both.
    if (!regName.test(authority.host))
      return `its host "${authority.host}" holds a character RFC 3986 does not allow there, or a bad percent-encoding`
  }
  if (rest === '') return authority
  if (!rest.startsWith(':')) return `"${rest}" follows the host where only ":" and a port may`
  authority.port = rest.slice(1)
  if (!/^\d*$/.test(authority.port)) return `its port "${authority.port}" is not digits`
  return authority
}

/**
 * `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`.
 * @example isUri('https://example.com/login') // true
 */
export function isUri(value: string): boolean {
  const match = /^([^:/?#]+):([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(value)
  if (!match) return false
  const [, scheme = '', hierPart = '', query, fragment] = match
  if (!isScheme(scheme)) return false
  if (query !== undefined && !queryOrFragment.test(query)) return false
  if (fragment !== undefined && !queryOrFragment.test(fragment)) return false
  // `"//" authority path-abempty`; otherwise path-absolute, path-rootless or path-empty, which together
  // are any run of pchar and "/" that does not start with "//".
  if (!hierPart.startsWith('//')) return path.test(hierPart)
  const slash = hierPart.indexOf('/', 2)
  const authority = slash < 0 ? hierPart.slice(2) : hierPart.slice(2, slash)
  return typeof parseAuthority(authority) !== 'string' && path.test(slash < 0 ? '' : hierPart.slice(slash))
}

/**
 * RFC 3986's `IPv6address`: eight groups of 1–4 hex digits, the last two of which may be an IPv4 address,
 * and at most one "::" standing for one or more groups of zeros.
 */
function isIpv6(value: string): boolean {
  let text = value
  const lastColon = value.lastIndexOf(':')
  const tail = value.slice(lastColon + 1)
  if (tail.includes('.')) {
    const octets = tail.split('.')
    if (lastColon < 0 || octets.length !== 4 || !octets.every((octet) => decOctet.test(octet))) return false
    text = `${value.slice(0, lastColon + 1)}0:0`
  }
  const halves = text.split('::')
  if (halves.length > 2) return false
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')))
  if (!groups.every((group) => h16.test(group))) return false
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8
}
