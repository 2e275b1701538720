/**
 * Output scripts and addresses, both ways, for one network, and Esplora's names for script types. Done by
 * hand over bitcoinjs-lib's encoders because its `address.toOutputScript`/`fromOutputScript` need an ECC
 * library for P2TR, and a script's address needs no curve arithmetic.
 */
import type { BitcoinNetwork } from '@airlock/bridge-protocol/BitcoinNetworks'
import { address as bitcoinAddress, type Network } from 'bitcoinjs-lib'

/** `scriptpubkey_type` as Esplora (electrs) names it. */
export type Type =
  | 'empty'
  | 'p2pk'
  | 'p2pkh'
  | 'p2sh'
  | 'v0_p2wpkh'
  | 'v0_p2wsh'
  | 'v1_p2tr'
  | 'op_return'
  | 'multisig'
  | 'unknown'

const OP_0 = 0x00
const OP_1 = 0x51
const OP_16 = 0x60
const OP_RETURN = 0x6a
const OP_DUP = 0x76
const OP_HASH160 = 0xa9
const OP_EQUAL = 0x87
const OP_EQUALVERIFY = 0x88
const OP_CHECKSIG = 0xac
const OP_CHECKMULTISIG = 0xae

/** The witness version and program of a segwit output script, if it is one (BIP-141). */
function witnessProgram(script: Uint8Array): { version: number; program: Uint8Array } | undefined {
  const [op, length] = script
  if (op === undefined || length === undefined || script.length < 4 || script.length > 42) return undefined
  if (op !== OP_0 && (op < OP_1 || op > OP_16)) return undefined
  if (length !== script.length - 2) return undefined
  return { version: op === OP_0 ? 0 : op - OP_1 + 1, program: script.subarray(2) }
}

const isP2pkh = (s: Uint8Array) =>
  s.length === 25 &&
  s[0] === OP_DUP &&
  s[1] === OP_HASH160 &&
  s[2] === 20 &&
  s[23] === OP_EQUALVERIFY &&
  s[24] === OP_CHECKSIG
const isP2sh = (s: Uint8Array) => s.length === 23 && s[0] === OP_HASH160 && s[1] === 20 && s[22] === OP_EQUAL
const isP2pk = (s: Uint8Array) =>
  (s.length === 35 && s[0] === 33 && s[34] === OP_CHECKSIG) ||
  (s.length === 67 && s[0] === 65 && s[66] === OP_CHECKSIG)
const isMultisig = (s: Uint8Array) =>
  s.length > 3 && (s[0] ?? 0) >= OP_1 && (s[0] ?? 0) <= OP_16 && s[s.length - 1] === OP_CHECKMULTISIG

/**
 * Esplora's name for the kind of `script`.
 * @example
 * Script.type(hexToBytes('0014…')) // 'v0_p2wpkh'
 */
export function type(script: Uint8Array): Type {
  if (script.length === 0) return 'empty'
  if (isP2pkh(script)) return 'p2pkh'
  if (isP2sh(script)) return 'p2sh'
  const witness = witnessProgram(script)
  if (witness?.version === 0 && witness.program.length === 20) return 'v0_p2wpkh'
  if (witness?.version === 0 && witness.program.length === 32) return 'v0_p2wsh'
  if (witness?.version === 1 && witness.program.length === 32) return 'v1_p2tr'
  if (script[0] === OP_RETURN) return 'op_return'
  if (isP2pk(script)) return 'p2pk'
  if (isMultisig(script)) return 'multisig'
  return 'unknown'
}

/** The address `script` pays to on `network`, or undefined for scripts without one (P2PK, OP_RETURN …). */
export function toAddress(script: Uint8Array, network: Network): string | undefined {
  if (isP2pkh(script)) return bitcoinAddress.toBase58Check(script.subarray(3, 23), network.pubKeyHash)
  if (isP2sh(script)) return bitcoinAddress.toBase58Check(script.subarray(2, 22), network.scriptHash)
  const witness = witnessProgram(script)
  if (!witness || (witness.version === 0 && witness.program.length !== 20 && witness.program.length !== 32))
    return undefined
  return bitcoinAddress.toBech32(witness.program, witness.version, network.bech32)
}

/**
 * The output script of `address` on `network`, or undefined when it is no address of that network (a
 * typo, a bad checksum, another network's prefix).
 * @example
 * Script.fromAddress('rltc1q…', network) // Uint8Array [0x00, 0x14, …]
 */
export function fromAddress(address: string, network: Network): Uint8Array | undefined {
  try {
    if (address.toLowerCase().startsWith(`${network.bech32}1`)) {
      const { version, prefix, data } = bitcoinAddress.fromBech32(address)
      if (prefix !== network.bech32 || version > 16 || data.length < 2 || data.length > 40) return undefined
      if (version === 0 && data.length !== 20 && data.length !== 32) return undefined
      return Uint8Array.of(version === 0 ? OP_0 : OP_1 + version - 1, data.length, ...data)
    }
    const { version, hash } = bitcoinAddress.fromBase58Check(address)
    if (version === network.pubKeyHash)
      return Uint8Array.of(OP_DUP, OP_HASH160, 20, ...hash, OP_EQUALVERIFY, OP_CHECKSIG)
    if (version === network.scriptHash) return Uint8Array.of(OP_HASH160, 20, ...hash, OP_EQUAL)
    return undefined
  } catch {
    return undefined
  }
}

/** bitcoinjs parameters of a network Airlock knows: only the address fields matter to an index. */
export function networkFrom(known: BitcoinNetwork): Network {
  return {
    ...known,
    messagePrefix: '\x18Bitcoin Signed Message:\n',
    bip32: { public: 0x043587cf, private: 0x04358394 },
    wif: 0xef,
  }
}
