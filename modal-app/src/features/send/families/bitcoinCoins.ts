/**
 * Bitcoin-family coins as Send spends them, with no curve library: which addresses a network has, what an
 * input of the sender's kind and each output weigh, when an output is dust, and which coins pay an amount
 * and its fee (largest first).
 */
import { bitcoinNetworkOf } from '@airlock/bridge-protocol/BitcoinNetworks'
import { address, crypto, type Network as Params } from 'bitcoinjs-lib'
import type { Network } from '../../../shared/Network.ts'

/** An unspent output of the sender, as Esplora lists it. */
export type Coin = { txid: string; vout: number; value: bigint }

/** What the sender's address is, and what a PSBT input needs for the wallet to sign it. */
export type Spender =
  | { kind: 'p2wpkh'; script: Uint8Array }
  | { kind: 'p2sh-p2wpkh'; script: Uint8Array; redeemScript: Uint8Array }
  | { kind: 'p2tr'; script: Uint8Array; tapInternalKey: Uint8Array }

/** A wallet's sender that Send cannot spend from, with why. */
export type Unspendable = { unspendable: 'kind' | 'publicKey' }

/**
 * Weight units of one input of each kind, its signature at its longest, so a fee never falls short of the
 * rate: 36 bytes of outpoint, the script length, 4 of sequence (×4), then the witness.
 */
const inputWeight: Readonly<Record<Spender['kind'], number>> = {
  // Witness: 2 items, a DER signature of up to 72 bytes + its sighash byte, a 33-byte key.
  p2wpkh: 41 * 4 + (1 + 1 + 73 + 1 + 33),
  // The scriptSig pushes the 22-byte witness program.
  'p2sh-p2wpkh': (41 + 23) * 4 + (1 + 1 + 73 + 1 + 33),
  // A key-path spend: one Schnorr signature, 65 bytes with an explicit sighash byte.
  p2tr: 41 * 4 + (1 + 1 + 65),
}

/**
 * The dust relay fee rate in sat/vB by bech32 prefix: an output worth less than making and spending it at
 * this rate is dust, which nodes do not relay (Bitcoin Core's `-dustrelayfee`, 3 sat/vB). Litecoin Core's
 * is ten times that: litecoind 0.21 refuses a 2,939-sat P2WPKH output and relays 2,940.
 */
const dustRelayRate: Readonly<Record<string, number>> = { ltc: 30, tltc: 30, rltc: 30 }

/** bitcoinjs parameters of a network, from the one table Airlock keeps; undefined for a chain it does not know. */
export function paramsOf(network: Pick<Network, 'id'>): Params | undefined {
  const known = bitcoinNetworkOf(network.id.slice(network.id.indexOf(':') + 1))
  if (!known) return undefined
  // Only the address versions matter here; message and extended-key prefixes are never used.
  return {
    ...known,
    messagePrefix: '\x18Bitcoin Signed Message:\n',
    bip32: { public: 0, private: 0 },
    wif: 0,
  }
}

/**
 * The output script an address pays on the network; undefined when it is not one of the network's.
 * @example outputScript('rltc1q…', params) // Uint8Array [0x00, 0x14, …]
 */
export function outputScript(text: string, params: Params): Uint8Array | undefined {
  let bech32: ReturnType<typeof address.fromBech32> | undefined
  try {
    bech32 = address.fromBech32(text)
  } catch {}
  // bitcoinjs checks a taproot key against the curve, which needs an ECC library this chunk does without;
  // any 32-byte witness v1 program is a valid output.
  if (bech32?.version === 1 && bech32.data.length === 32)
    return bech32.prefix === params.bech32 ? Uint8Array.of(0x51, 0x20, ...bech32.data) : undefined
  try {
    return address.toOutputScript(text, params)
  } catch {
    return undefined
  }
}

/** The kind of address `script` pays, among those Send spends from. */
export function kindOf(script: Uint8Array): Spender['kind'] | undefined {
  if (script.length === 22 && script[0] === 0x00 && script[1] === 0x14) return 'p2wpkh'
  if (script.length === 34 && script[0] === 0x51 && script[1] === 0x20) return 'p2tr'
  if (script.length === 23 && script[0] === 0xa9 && script[1] === 0x14 && script[22] === 0x87)
    return 'p2sh-p2wpkh'
  return undefined
}

/**
 * What the sender spends from: native segwit as is; nested segwit and taproot only with the account's
 * public key (for the redeem script, and the internal key the wallet signs for).
 */
export function spenderOf(script: Uint8Array, publicKey: Uint8Array | undefined): Spender | Unspendable {
  const kind = kindOf(script)
  if (kind === 'p2wpkh') return { kind, script }
  if (kind === 'p2tr') {
    if (publicKey?.length !== 32 && publicKey?.length !== 33) return { unspendable: 'publicKey' }
    return { kind, script, tapInternalKey: publicKey.slice(-32) }
  }
  if (kind === 'p2sh-p2wpkh') {
    if (publicKey?.length !== 33) return { unspendable: 'publicKey' }
    // Nested segwit is the one P2SH kind a single-key wallet uses; its key must hash to the address.
    const redeemScript = Uint8Array.of(0x00, 0x14, ...crypto.hash160(publicKey))
    const hash = crypto.hash160(redeemScript)
    if (!hash.every((byte, i) => byte === script[i + 2])) return { unspendable: 'publicKey' }
    return { kind, script, redeemScript }
  }
  return { unspendable: 'kind' }
}

const varIntSize = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5)

/** Weight of an output paying `scriptLength` bytes of script: 8 of value, the length, the script. */
const outputWeight = (scriptLength: number) => (8 + varIntSize(scriptLength) + scriptLength) * 4

/**
 * Virtual size of a segwit transaction: version and locktime, the counts, the marker and flag (2 WU), the
 * inputs and outputs.
 */
function vsizeOf(inputs: number, kind: Spender['kind'], outputScriptLengths: readonly number[]): number {
  const counts = varIntSize(inputs) + varIntSize(outputScriptLengths.length)
  const weight =
    (8 + counts) * 4 +
    2 +
    inputs * inputWeight[kind] +
    outputScriptLengths.reduce((sum, length) => sum + outputWeight(length), 0)
  return Math.ceil(weight / 4)
}

/** The fee of `vsize` vB at `rate` sat/vB, rounded up (the float's last digits do not add a satoshi). */
const feeOf = (vsize: number, rate: number) => BigInt(Math.ceil(vsize * rate - 1e-9))

/** The least an output of `script` may carry on the network (Bitcoin Core's `GetDustThreshold`). */
export function dustOf(script: Uint8Array, params: Params): bigint {
  const version = script[0] ?? 0xff
  const witnessProgram =
    script.length >= 4 &&
    script.length <= 42 &&
    (version === 0 || (version >= 0x51 && version <= 0x60)) &&
    script[1] === script.length - 2
  // Spending it later: outpoint, sequence and a signature, a quarter of it in witness for segwit.
  const spend = witnessProgram ? 32 + 4 + 1 + Math.floor(107 / 4) + 4 : 32 + 4 + 1 + 107 + 4
  return BigInt((8 + varIntSize(script.length) + script.length + spend) * (dustRelayRate[params.bech32] ?? 3))
}

export type Plan = { inputs: Coin[]; change: bigint; fee: bigint; vsize: number }

export type PlanOptions = {
  coins: readonly Coin[]
  amount: bigint
  /** sat/vB */
  rate: number
  kind: Spender['kind']
  receiver: Uint8Array
  /** The change output's script: the sender's. */
  change: Uint8Array
  params: Params
}

/** Largest first, then by outpoint, so the same coins give the same transaction. */
const byValue = (a: Coin, b: Coin) =>
  a.value === b.value ? a.txid.localeCompare(b.txid) || a.vout - b.vout : a.value > b.value ? -1 : 1

/**
 * Picks the largest coins until they pay `amount` and the fee; change above dust goes back to the sender,
 * less goes to the fee. Undefined when all the coins do not cover it.
 */
export function plan(options: PlanOptions): Plan | undefined {
  const { amount, rate, kind, receiver, change, params } = options
  const coins = [...options.coins].sort(byValue)
  let total = 0n
  for (let count = 1; count <= coins.length; count++) {
    total += coins[count - 1]?.value ?? 0n
    const alone = vsizeOf(count, kind, [receiver.length])
    if (total < amount + feeOf(alone, rate)) continue
    const inputs = coins.slice(0, count)
    const withChange = vsizeOf(count, kind, [receiver.length, change.length])
    const left = total - amount - feeOf(withChange, rate)
    if (left >= dustOf(change, params))
      return { inputs, change: left, fee: feeOf(withChange, rate), vsize: withChange }
    return { inputs, change: 0n, fee: total - amount, vsize: alone }
  }
  return undefined
}

/** All the coins into one output of `receiverLength` bytes of script, less its fee; never below 0. */
export function maxOf(
  coins: readonly Coin[],
  rate: number,
  kind: Spender['kind'],
  receiverLength: number,
): bigint {
  if (coins.length === 0) return 0n
  const total = coins.reduce((sum, coin) => sum + coin.value, 0n)
  const left = total - feeOf(vsizeOf(coins.length, kind, [receiverLength]), rate)
  return left > 0n ? left : 0n
}

/**
 * Base units as a decimal, every digit kept (the PSBT's exact amounts), trailing zeros dropped.
 * @example formatCoins(150_000_000n, 8) // '1.5'
 */
export function formatCoins(value: bigint, decimals: number): string {
  const sign = value < 0n ? '-' : ''
  const digits = (value < 0n ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`
}
