/**
 * The test wallets of the Solana and Bitcoin families (the e2e suite injects them into pages): fixed,
 * test-only keys, so their addresses are the same on every machine, and the devnet funds exactly these.
 * Never hold real funds with them.
 */
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { hexToBytes } from '@noble/hashes/utils'
import { base58 } from '@scure/base'
import { type Network, payments } from 'bitcoinjs-lib'

/** The Solana wallet's Ed25519 seed (32 bytes, hex). */
export const solanaSeedHex = '8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63'
/** The Bitcoin wallet's secp256k1 private key (hex). */
export const bitcoinPrivateKeyHex = 'c28a9f80738f770d527803a566cf6fc3edf6cea586c4fc4a5223a5ad797e1ac3'

/** The Solana wallet's address: the base58 of its public key. */
export function solanaAddress(): string {
  return base58.encode(ed25519.getPublicKey(hexToBytes(solanaSeedHex)))
}

/** The Bitcoin wallet's native segwit (P2WPKH) address on `network`. */
export function bitcoinAddress(network: Network): string {
  const pubkey = secp256k1.getPublicKey(hexToBytes(bitcoinPrivateKeyHex), true)
  const { address } = payments.p2wpkh({ pubkey, network })
  if (!address) throw new Error('bitcoinjs-lib derived no P2WPKH address')
  return address
}
