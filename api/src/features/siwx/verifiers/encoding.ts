/**
 * Signature texts: wallets of one namespace answer in different encodings, so a text is read every way it
 * can be, and the signature check decides which reading was meant.
 */
import { base58, base64, hex } from '@scure/base'

/**
 * Every reading of a signature text as bytes. A text can be valid in several encodings (a hex string may
 * also be base64), and the signature check decides which one was meant.
 */
export function signatureBytes(text: string): Uint8Array[] {
  const readings = [
    /^(?:0x)?(?:[0-9a-fA-F]{2})+$/.test(text)
      ? decodeOr(() => hex.decode(text.replace(/^0x/, '').toLowerCase()))
      : undefined,
    decodeOr(() => base58.decode(text)),
    decodeOr(() => base64.decode(text)),
  ]
  return readings.filter((bytes) => bytes !== undefined)
}

export function decodeOr(decode: () => Uint8Array): Uint8Array | undefined {
  try {
    return decode()
  } catch {
    return undefined
  }
}
