/**
 * The account line and the `Chain ID` of a sign-in message, by CAIP-2 namespace: what an address and a
 * chain reference of each namespace look like, checksums included.
 * - `eip155`: "0x" and 40 hex digits in EIP-55's mixed case (https://eips.ethereum.org/EIPS/eip-55); the
 *   decimal EIP-155 chain id.
 * - `solana`: a 32-byte Ed25519 key in base58; the genesis hash's first 32 characters (CAIP-2 profile).
 * - `bip122`: a segwit address (BIP-173 bech32 for v0, BIP-350 bech32m after) or a Base58Check P2PKH/P2SH
 *   address, of the chain's network where the chain is one we know; the genesis block hash's first 32
 *   lowercase hex digits.
 */
import { type BitcoinNetwork, bech32Start, bitcoinNetworkOf } from '../BitcoinNetworks.ts'
import type { Namespace } from '../Caip.ts'
import { keccak256, sha256 } from './Hashes.ts'

const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const bech32Alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'

/**
 * Why `reference` is not a CAIP-2 reference of the namespace, or `undefined`.
 * @example referenceProblem('eip155', '01') // 'must be …'
 */
export function referenceProblem(namespace: Namespace, reference: string): string | undefined {
  if (namespace === 'eip155')
    return /^[1-9]\d{0,31}$/.test(reference)
      ? undefined
      : 'must be an EIP-155 chain id: decimal digits, no leading zero'
  if (namespace === 'solana')
    return /^[1-9A-HJ-NP-Za-km-z]{32}$/.test(reference)
      ? undefined
      : "must be a Solana CAIP-2 reference: the genesis hash's first 32 base58 characters"
  return /^[0-9a-f]{32}$/.test(reference)
    ? undefined
    : "must be a Bitcoin CAIP-2 reference: the genesis block hash's first 32 lowercase hex digits"
}

/** Why `address` is not an account of the chain, or `undefined`; the text follows "the address …". */
export function addressProblem(namespace: Namespace, reference: string, address: string): string | undefined {
  if (namespace === 'eip155') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return 'must be "0x" and 40 hexadecimal digits'
    const checksummed = checksumAddress(address)
    return address === checksummed ? undefined : `must be EIP-55 checksummed (${checksummed})`
  }
  if (namespace === 'solana')
    return base58(address)?.length === 32 ? undefined : 'must be a Solana public key: 32 bytes in base58'
  const problem = bitcoinProblem(address, bitcoinNetworkOf(reference))
  return problem && `must be a Bitcoin address of this chain: ${problem}`
}

/**
 * The EIP-55 spelling of an EVM address: a hex letter is upper case where the keccak-256 of the lower-case
 * hex has a nibble of 8 or more.
 * @example checksumAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2') // '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
 */
export function checksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase()
  const hash = keccak256(Uint8Array.from(hex, (char) => char.charCodeAt(0)))
  let out = '0x'
  for (let i = 0; i < hex.length; i++) {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? hex.charAt(i).toUpperCase() : hex.charAt(i)
  }
  return out
}

function bitcoinProblem(address: string, network: BitcoinNetwork | undefined): string | undefined {
  const segwit = bech32(address)
  if (typeof segwit !== 'string')
    return network && segwit.prefix !== network.bech32
      ? `its prefix "${segwit.prefix}" is not this network's "${network.bech32}"`
      : undefined
  // No Base58Check address of these networks starts so, so such a text was meant as bech32.
  if (bech32Start.test(address)) return segwit
  const bytes = base58(address)
  if (bytes?.length !== 25) return 'it is neither a bech32 address nor a 25-byte Base58Check one'
  const checksum = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4)
  if (!checksum.every((byte, i) => byte === bytes[21 + i])) return 'its Base58Check checksum is wrong'
  const versions = network && [network.pubKeyHash, network.scriptHash]
  if (versions && !versions.includes(bytes[0] ?? -1))
    return `its version byte ${bytes[0]} is not this network's (${versions.join(' or ')})`
  return undefined
}

/**
 * Bytes of a base58 text, leading "1"s as zero bytes; `undefined` for a character outside the alphabet, or
 * a text longer than any address (its big-number arithmetic grows with the square of the length).
 */
function base58(text: string): Uint8Array | undefined {
  if (text.length > 64) return undefined
  let value = 0n
  for (const char of text) {
    const digit = base58Alphabet.indexOf(char)
    if (digit < 0) return undefined
    value = value * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn))
  const zeros = /^1*/.exec(text)?.[0].length ?? 0
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes])
}

/**
 * A segwit address (BIP-173, BIP-350): its prefix, or why it is not one. Version 0 is bech32 with a
 * 20- or 32-byte program; later versions are bech32m with 2 to 40 bytes.
 */
function bech32(address: string): { prefix: string } | string {
  if (address !== address.toLowerCase() && address !== address.toUpperCase())
    return 'it mixes upper and lower case'
  const text = address.toLowerCase()
  const separator = text.lastIndexOf('1')
  const prefix = text.slice(0, separator)
  const data = [...text.slice(separator + 1)].map((char) => bech32Alphabet.indexOf(char))
  if (
    text.length > 90 ||
    separator < 1 ||
    data.length < 6 ||
    data.includes(-1) ||
    ![...prefix].every((char) => char >= '!' && char <= '~')
  )
    return 'it is not a bech32 text'
  const expanded = [...prefix].map((char) => char.charCodeAt(0))
  const check = polymod([
    ...expanded.map((code) => code >> 5),
    0,
    ...expanded.map((code) => code & 31),
    ...data,
  ])
  const [version = -1, ...words] = data.slice(0, -6)
  const program: number[] = []
  let accumulator = 0
  let bits = 0
  for (const word of words) {
    accumulator = ((accumulator << 5) | word) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      program.push((accumulator >> bits) & 0xff)
    }
  }
  if (check !== (version === 0 ? 1 : 0x2bc830a3)) return 'its bech32 checksum is wrong'
  const padded = bits >= 5 || (accumulator & ((1 << bits) - 1)) !== 0
  const sizes =
    version === 0
      ? program.length === 20 || program.length === 32
      : program.length >= 2 && program.length <= 40
  if (version < 0 || version > 16 || padded || !sizes) return 'its witness program is malformed'
  return { prefix }
}

function polymod(values: number[]): number {
  const generator = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
  let checksum = 1
  for (const value of values) {
    const top = checksum >>> 25
    checksum = ((checksum & 0x1ffffff) << 5) ^ value
    generator.forEach((g, i) => {
      if ((top >>> i) & 1) checksum ^= g
    })
  }
  return checksum
}
