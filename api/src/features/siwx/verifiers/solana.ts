/**
 * Solana sign-in: ed25519 over the message's UTF-8 bytes; the address is the base58 public key. The
 * signature may come as base58, hex (0x optional) or base64.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { utf8ToBytes } from '@noble/hashes/utils'
import { base58 } from '@scure/base'
import { decodeOr, signatureBytes } from './encoding.ts'
import type { Verifier } from './Verifier.ts'

export const solana: Verifier = {
  rpc: false,
  supports: () => true,
  isAddress: (_, address) => decodeOr(() => base58.decode(address))?.length === 32,
  caseless: () => false,
  verify: async ({ address, message, signature }) => verifySolana(address, message, signature),
}

function verifySolana(address: string, message: string, signature: string): boolean {
  const publicKey = decodeOr(() => base58.decode(address))
  if (publicKey?.length !== 32) return false
  const bytes = utf8ToBytes(message)
  return signatureBytes(signature).some((candidate) => {
    if (candidate.length !== 64) return false
    try {
      // RFC 8032's strict rules, as Solana's own verifier applies them.
      return ed25519.verify(candidate, bytes, publicKey, { zip215: false })
    } catch {
      return false
    }
  })
}
