/** Base64, as WalletConnect's Solana and Bitcoin methods and Bitcoin signatures carry bytes. */

/** @example base64.encode(new Uint8Array([1, 2])) // 'AQI=' */
export function encode(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Throws on text that is not base64. @example base64.decode('AQI=') // Uint8Array [1, 2] */
export function decode(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
}
