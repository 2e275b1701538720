/**
 * Names on loopback. The dev stack serves the modal origin under a name, not an IP address, because WebAuthn
 * refuses origins whose host is an IP ("This is an invalid domain"); browsers resolve every `*.localhost` name
 * to loopback themselves (RFC 6761 §6.3) and count it a secure context, so passkeys work there with the
 * browser's defaults.
 */

/**
 * The modal origin's host name on the dev stack: another site than the demo dApp's `localhost`. Its server
 * binds loopback; Node does not resolve such names everywhere, so Node-side code reaches it through
 * {@link loopbackUrl}.
 */
export const modalHost = 'airlock.localhost'

/**
 * `url` with a `*.localhost` host replaced by 127.0.0.1, for Node-side requests: browsers map those names to
 * loopback by themselves, but Node asks the system's resolver, which often does not.
 * @example loopbackUrl('http://airlock.localhost:5174/x') // 'http://127.0.0.1:5174/x'
 */
export function loopbackUrl(url: string): string {
  const parsed = new URL(url)
  if (parsed.hostname.endsWith('.localhost')) parsed.hostname = '127.0.0.1'
  return parsed.href
}
