/**
 * Base58 (Bitcoin alphabet), as Solana writes keys and signatures. WalletConnect's Solana methods carry
 * messages and signatures in it, while Wallet Standard carries bytes.
 */
const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** @example base58.encode(new Uint8Array([0, 1])) // '12' */
export function encode(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let value = 0n
  for (const byte of bytes) value = value * 256n + BigInt(byte)
  let out = ''
  while (value > 0n) {
    out = alphabet[Number(value % 58n)] + out
    value /= 58n
  }
  return '1'.repeat(zeros) + out
}

/** Throws on a character outside the alphabet. @example base58.decode('12') // Uint8Array [0, 1] */
export function decode(text: string): Uint8Array {
  let zeros = 0
  while (zeros < text.length && text[zeros] === '1') zeros++
  let value = 0n
  for (const char of text) {
    const digit = alphabet.indexOf(char)
    if (digit < 0) throw new Error(`Not base58: ${char}`)
    value = value * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  while (value > 0n) {
    bytes.unshift(Number(value % 256n))
    value /= 256n
  }
  return new Uint8Array([...new Array(zeros).fill(0), ...bytes])
}
