/**
 * Bitcoin sign-in: BIP-322 "simple" signatures (P2WPKH, P2SH-P2WPKH, P2TR key path) and the legacy BIP-137
 * compact signatures most wallets still produce (P2PKH, P2SH-P2WPKH, P2WPKH). The signature may come as
 * base64 (the encoding of both BIPs) or hex.
 */

import { type BitcoinNetwork, bech32Start, bitcoinNetworkOf } from '@airlock/bridge-protocol/BitcoinNetworks'
import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils'
import { address as bitcoinAddress, Transaction } from 'bitcoinjs-lib'
import { signatureBytes } from './encoding.ts'
import type { Verifier } from './Verifier.ts'

export const bip122: Verifier = {
  rpc: false,
  supports: (reference) => bitcoinNetworkOf(reference) !== undefined,
  isAddress: (reference, address) => {
    const network = bitcoinNetworkOf(reference)
    return network !== undefined && decodeBitcoinAddress(address, network) !== undefined
  },
  // Bech32 is caseless; base58 is not.
  caseless: (address) => bech32Start.test(address),
  verify: async ({ reference, address, message, signature }) => {
    const network = bitcoinNetworkOf(reference)
    return network ? verifyBitcoin(address, message, signature, network) : false
  },
}

type BitcoinOutput = {
  kind: 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2tr'
  /** The key or script hash, or P2TR's output key. */
  program: Uint8Array
  /** The scriptPubKey. */
  script: Uint8Array
}

function decodeBitcoinAddress(address: string, network: BitcoinNetwork): BitcoinOutput | undefined {
  try {
    if (bech32Start.test(address)) {
      const { version, prefix, data } = bitcoinAddress.fromBech32(address)
      if (prefix !== network.bech32) return undefined
      if (version === 0 && data.length === 20)
        return { kind: 'p2wpkh', program: data, script: concatBytes(Uint8Array.of(0x00, 0x14), data) }
      if (version === 1 && data.length === 32)
        return { kind: 'p2tr', program: data, script: concatBytes(Uint8Array.of(0x51, 0x20), data) }
      // P2WSH and future witness versions would need a script interpreter.
      return undefined
    }
    const { version, hash } = bitcoinAddress.fromBase58Check(address)
    if (hash.length !== 20) return undefined
    if (version === network.pubKeyHash) return { kind: 'p2pkh', program: hash, script: p2pkhScript(hash) }
    if (version === network.scriptHash)
      return {
        kind: 'p2sh',
        program: hash,
        script: concatBytes(Uint8Array.of(0xa9, 0x14), hash, Uint8Array.of(0x87)),
      }
    return undefined
  } catch {
    return undefined
  }
}

function verifyBitcoin(
  address: string,
  message: string,
  signature: string,
  network: BitcoinNetwork,
): boolean {
  const output = decodeBitcoinAddress(address, network)
  if (!output) return false
  const bytes = utf8ToBytes(message)
  return signatureBytes(signature).some(
    (candidate) => verifyBip137(output, bytes, candidate) || verifyBip322Simple(output, bytes, candidate),
  )
}

const equalBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i])
const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes))
const p2pkhScript = (keyHash: Uint8Array) =>
  concatBytes(Uint8Array.of(0x76, 0xa9, 0x14), keyHash, Uint8Array.of(0x88, 0xac))
// The P2SH-P2WPKH redeem script's hash, which a nested-segwit address carries.
const nestedKeyHash = (keyHash: Uint8Array) => hash160(concatBytes(Uint8Array.of(0x00, 0x14), keyHash))

/**
 * BIP-137 (Bitcoin Core's `signmessage`, extended to segwit): header ‖ r ‖ s over the double SHA-256 of the
 * magic-prefixed message. The header's address type is not trusted: the key is recovered and must hash to
 * the address, whichever of P2PKH, P2SH-P2WPKH or P2WPKH it is (Electrum, for one, labels segwit keys 31–34).
 */
function verifyBip137(output: BitcoinOutput, message: Uint8Array, signature: Uint8Array): boolean {
  const header = signature[0]
  if (signature.length !== 65 || header === undefined || header < 27 || header > 42) return false
  const compressed = header >= 31
  let publicKey: Uint8Array
  try {
    publicKey = secp256k1.Signature.fromCompact(signature.subarray(1))
      .addRecoveryBit((header - 27) % 4)
      .recoverPublicKey(bitcoinMessageHash(message))
      .toRawBytes(compressed)
  } catch {
    return false
  }
  const keyHash = hash160(publicKey)
  if (output.kind === 'p2pkh') return equalBytes(keyHash, output.program)
  // Segwit outputs commit to compressed keys only.
  if (!compressed) return false
  if (output.kind === 'p2wpkh') return equalBytes(keyHash, output.program)
  if (output.kind === 'p2sh') return equalBytes(nestedKeyHash(keyHash), output.program)
  return false
}

const messageMagic = utf8ToBytes('\x18Bitcoin Signed Message:\n')

function bitcoinMessageHash(message: Uint8Array): Uint8Array {
  return sha256(sha256(concatBytes(messageMagic, compactSize(message.length), message)))
}

function compactSize(value: number): Uint8Array {
  if (value < 0xfd) return Uint8Array.of(value)
  if (value <= 0xffff) return Uint8Array.of(0xfd, value & 0xff, value >> 8)
  return Uint8Array.of(0xfe, value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24)
}

/**
 * BIP-322 "simple": the witness of `to_sign`, which spends `to_spend`, whose output is the address's script
 * and whose input commits to the message. Single-key scripts only: P2WPKH, P2SH-P2WPKH and P2TR key path.
 */
function verifyBip322Simple(output: BitcoinOutput, message: Uint8Array, signature: Uint8Array): boolean {
  const witness = decodeWitness(signature)
  if (!witness) return false
  try {
    const toSign = toSignTransaction(output.script, message)
    if (output.kind === 'p2tr') {
      const [sig] = witness
      if (witness.length !== 1 || !sig) return false
      // BIP-341: 64 bytes is SIGHASH_DEFAULT; 65 bytes must name its type, and BIP-322 allows only ALL.
      const hashType = sig.length === 64 ? Transaction.SIGHASH_DEFAULT : sig[64]
      if (
        hashType !== Transaction.SIGHASH_DEFAULT &&
        !(sig.length === 65 && hashType === Transaction.SIGHASH_ALL)
      )
        return false
      const hash = toSign.hashForWitnessV1(0, [output.script], [0n], hashType)
      return schnorr.verify(sig.subarray(0, 64), hash, output.program)
    }
    if (output.kind !== 'p2wpkh' && output.kind !== 'p2sh') return false
    const [sig, publicKey] = witness
    if (witness.length !== 2 || !sig || !publicKey) return false
    if (publicKey.length !== 33 || (publicKey[0] !== 0x02 && publicKey[0] !== 0x03)) return false
    const keyHash = hash160(publicKey)
    const committed = output.kind === 'p2wpkh' ? keyHash : nestedKeyHash(keyHash)
    if (!equalBytes(committed, output.program) || sig.at(-1) !== Transaction.SIGHASH_ALL) return false
    const hash = toSign.hashForWitnessV0(0, p2pkhScript(keyHash), 0n, Transaction.SIGHASH_ALL)
    // BIP-322's required rules: strict DER, low S.
    return secp256k1.verify(sig.subarray(0, -1), hash, publicKey, { lowS: true, format: 'der' })
  } catch {
    return false
  }
}

function toSignTransaction(script: Uint8Array, message: Uint8Array): Transaction {
  const toSpend = new Transaction()
  toSpend.version = 0
  const messageHash = taggedHash('BIP0322-signed-message', message)
  toSpend.addInput(new Uint8Array(32), 0xffffffff, 0, concatBytes(Uint8Array.of(0x00, 0x20), messageHash))
  toSpend.addOutput(script, 0n)
  const toSign = new Transaction()
  toSign.version = 0
  toSign.addInput(toSpend.getHash(), 0, 0)
  toSign.addOutput(Uint8Array.of(0x6a), 0n)
  return toSign
}

function taggedHash(tag: string, data: Uint8Array): Uint8Array {
  const tagHash = sha256(utf8ToBytes(tag))
  return sha256(concatBytes(tagHash, tagHash, data))
}

/** A consensus-encoded witness stack: a count, then length-prefixed items, and nothing after. */
function decodeWitness(bytes: Uint8Array): Uint8Array[] | undefined {
  let offset = 0
  const size = (): number | undefined => {
    const first = bytes[offset++]
    if (first === undefined || first > 0xfd) return undefined
    if (first < 0xfd) return first
    const low = bytes[offset++]
    const high = bytes[offset++]
    return low === undefined || high === undefined ? undefined : low | (high << 8)
  }
  const count = size()
  if (count === undefined || count === 0) return undefined
  const items: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const length = size()
    if (length === undefined || offset + length > bytes.length) return undefined
    items.push(bytes.subarray(offset, offset + length))
    offset += length
  }
  return offset === bytes.length ? items : undefined
}
