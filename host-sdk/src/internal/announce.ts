/** How Airlock makes itself known on the page: EIP-6963 for EVM dApps, with its icon. */
import type { Eip1193Provider } from './eip1193.ts'

// Encoded at load: the SVG's text compresses to a third of its base64 in the host script's 5 KB.
export const icon = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#1f4ed8"/><circle cx="16" cy="16" r="7" fill="none" stroke="#fff" stroke-width="3"/></svg>',
)}` as const

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
