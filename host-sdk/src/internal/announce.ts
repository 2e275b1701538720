/** How Airlock makes itself known on the page: EIP-6963 for EVM dApps, with its icon. */
import type { Eip1193Provider } from './eip1193.ts'

export const icon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzFmNGVkOCIvPjxjaXJjbGUgY3g9IjE2IiBjeT0iMTYiIHI9IjciIGZpbGw9Im5vbmUiIHN0cm9rZT0iI2ZmZiIgc3Ryb2tlLXdpZHRoPSIzIi8+PC9zdmc+'

/** EIP-6963: announce now and whenever a dApp asks, so multi-injected discovery finds Airlock. */
export function announce(provider: Eip1193Provider, signal: AbortSignal) {
  const detail = Object.freeze({
    info: Object.freeze({ uuid: uuid(), name: 'Airlock', icon, rdns: 'dev.airlock' }),
    provider,
  })
  const post = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', post, { signal })
  post()
}

// crypto.randomUUID exists only in secure contexts; a plain-http dApp still needs a uuid for EIP-6963.
function uuid(): string {
  if (crypto.randomUUID) return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  // 8-4-4-4-12 hex digits: a dash before bytes 4, 6, 8 and 10.
  return [...b]
    .map((x, i) => (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + x.toString(16).padStart(2, '0'))
    .join('')
}
