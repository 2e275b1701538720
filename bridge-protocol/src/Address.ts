/**
 * Address validation: EVM addresses (EIP-55 checksums, https://eips.ethereum.org/EIPS/eip-55) and Solana
 * addresses (base58). Kept apart from the rest of the protocol because the EVM checksum needs
 * keccak-256, which the host SDK must not carry.
 */
import { keccak_256 } from '@noble/hashes/sha3'

const evmPattern = /^(0x)?[0-9a-fA-F]{40}$/
const base58Pattern = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * An EVM address: 40 hex characters, `0x` optional. With `strict`, a mixed-case address must carry a valid
 * EIP-55 checksum (all-lower or all-upper carries none and passes).
 * @example Address.isEvmAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', { strict: true }) // true
 */
export function isEvmAddress(value: unknown, options: { strict?: boolean } = {}): value is string {
  if (typeof value !== 'string' || !evmPattern.test(value)) return false
  if (!options.strict) return true
  const hex = value.replace(/^0x/, '')
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  return checksumEvmAddress(hex) === `0x${hex}`
}

/** EIP-55 checksum of an address. @example Address.checksumEvmAddress('0xf39f…') */
export function checksumEvmAddress(address: string): string {
  const hex = address.replace(/^0x/, '').toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(hex))
  let out = '0x'
  for (let i = 0; i < hex.length; i++) {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? (hex[i] ?? '').toUpperCase() : hex[i]
  }
  return out
}

/** A Solana address: base58, 32–44 characters. @example Address.isSolanaAddress('11111111111111111111111111111111') */
export function isSolanaAddress(value: unknown): value is string {
  return typeof value === 'string' && base58Pattern.test(value)
}
