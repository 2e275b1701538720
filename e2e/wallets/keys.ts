/**
 * Key derivation and Bitcoin message hashing, shared by the page-side wallets and the Node-side
 * verifiers so that both sides can never disagree about an address or a digest.
 */

import * as Regtest from '@airlock/devnet/bitcoin-regtest'
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha256'
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { networks, payments } from 'bitcoinjs-lib'
import bs58 from 'bs58'
import { privateKeyToAccount } from 'viem/accounts'
import type { BitcoinNetworkName } from './options.ts'

export function hexKeyToBytes(hex: string): Uint8Array {
  return hexToBytes(hex.startsWith('0x') ? hex.slice(2) : hex)
}

export function evmAddressFromPrivateKey(privateKey: `0x${string}`): `0x${string}` {
  return privateKeyToAccount(privateKey).address
}

export interface SolanaKeyInfo {
  address: string
  publicKey: Uint8Array
}

export function solanaKeyFromSeed(seedHex: string): SolanaKeyInfo {
  const publicKey = ed25519.getPublicKey(hexKeyToBytes(seedHex))
  // A Solana address is just the base58 of the ed25519 public key.
  return { address: bs58.encode(publicKey), publicKey }
}

export interface BitcoinKeyInfo {
  address: string
  /** 33-byte compressed secp256k1 public key. */
  publicKey: Uint8Array
}

export function bitcoinNetwork(name: BitcoinNetworkName): networks.Network {
  if (name === 'devnet') return Regtest.network
  return name === 'regtest' ? networks.regtest : networks.testnet
}

export function bitcoinKeyFromPrivateKey(privateKeyHex: string, network: BitcoinNetworkName): BitcoinKeyInfo {
  const publicKey = secp256k1.getPublicKey(hexKeyToBytes(privateKeyHex), true)
  const { address } = payments.p2wpkh({ pubkey: publicKey, network: bitcoinNetwork(network) })
  if (!address) throw new Error('bitcoinjs-lib derived no P2WPKH address')
  return { address, publicKey }
}

/** BIP-137 header base for a native segwit (P2WPKH, bech32) signer; the recovery id is added to it. */
const BIP137_P2WPKH_HEADER = 39

const BITCOIN_MESSAGE_MAGIC = utf8ToBytes('\x18Bitcoin Signed Message:\n')

/** double-SHA256 of magic prefix + varint(length) + message, as Bitcoin Core's signmessage. */
export function bitcoinMessageHash(message: Uint8Array): Uint8Array {
  return sha256(sha256(concatBytes(BITCOIN_MESSAGE_MAGIC, encodeVarInt(message.length), message)))
}

/** Bitcoin's CompactSize integer encoding (little-endian after a width marker). */
function encodeVarInt(value: number): Uint8Array {
  if (value < 0xfd) return Uint8Array.of(value)
  if (value <= 0xffff) return littleEndian(0xfd, value, 2)
  if (value <= 0xffffffff) return littleEndian(0xfe, value, 4)
  return littleEndian(0xff, value, 8)
}

function littleEndian(marker: number, value: number, width: number): Uint8Array {
  const out = new Uint8Array(1 + width)
  out[0] = marker
  // BigInt so the 8-byte case does not lose bits to 32-bit bitwise operators.
  let rest = BigInt(value)
  for (let i = 1; i <= width; i++) {
    out[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return out
}

/** 65-byte BIP-137 compact signature: header (39 + recovery id) || r || s. */
export function signBitcoinMessage(message: Uint8Array, privateKeyHex: string): Uint8Array {
  const signature = secp256k1.sign(bitcoinMessageHash(message), hexKeyToBytes(privateKeyHex), { lowS: true })
  const out = new Uint8Array(65)
  out[0] = BIP137_P2WPKH_HEADER + signature.recovery
  out.set(signature.toCompactRawBytes(), 1)
  return out
}

export { bytesToHex }
