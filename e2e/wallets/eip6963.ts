/** EIP-6963 multi-injected-provider discovery, done the way extensions do it from a content script. */

export interface Eip6963ProviderInfo {
  readonly uuid: string
  readonly name: string
  readonly icon: string
  readonly rdns: string
}

interface Eip6963ProviderDetail<Provider> {
  readonly info: Eip6963ProviderInfo
  readonly provider: Provider
}

/**
 * Announces now (for dApps already listening) and again on every `eip6963:requestProvider` (for dApps
 * that load later, which is the normal case for an init script). Returns the announce function.
 */
export function announceProvider<Provider>(info: Eip6963ProviderInfo, provider: Provider): () => void {
  const detail: Eip6963ProviderDetail<Provider> = Object.freeze({
    info: Object.freeze({ ...info }),
    provider,
  })
  const announce = (): void => {
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  }
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return announce
}

/**
 * UUIDv4 from getRandomValues: crypto.randomUUID exists only in secure contexts, and a dApp under test
 * may be served from a plain-http non-localhost origin.
 */
export function uuidV4(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
