/** Base64url without padding (RFC 4648 §5), as WebAuthn's JSON forms carry bytes. */
import * as base64 from './base64.ts'

/** @example base64url.encode(new Uint8Array([251, 255])) // '-_8' */
export function encode(bytes: Uint8Array): string {
  return base64.encode(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Throws on text that is not base64url. @example base64url.decode('-_8') // Uint8Array [251, 255] */
export function decode(text: string): Uint8Array<ArrayBuffer> {
  const padded = text
    .replaceAll('-', '+')
    .replaceAll('_', '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=')
  return new Uint8Array(base64.decode(padded))
}
