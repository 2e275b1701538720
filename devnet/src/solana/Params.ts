/**
 * Readers for Solana's positional params and their trailing config object. Each turns one untrusted JSON
 * value into a typed one or throws -32602 with a message that names the parameter, so a handler reads its
 * arguments in a line each and never touches raw JSON.
 */
import { type Address, isAddress, isSignature, type Signature } from '@solana/kit'
import { invalidParams } from './Rpc.ts'

export type Commitment = 'processed' | 'confirmed' | 'finalized'
export type Config = Readonly<Record<string, unknown>>

// The names the node still accepts from clients older than the three commitments of today.
const commitments: Readonly<Record<string, Commitment>> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
}

export function address(params: readonly unknown[], index: number, what = 'address'): Address {
  const value = params[index]
  if (typeof value !== 'string') throw invalidParams(`Invalid params: ${what} must be a base58 string`)
  if (!isAddress(value)) throw invalidParams(`Invalid param: ${what} \`${value}\` is not a valid address`)
  return value
}

export function signature(value: unknown, what = 'signature'): Signature {
  if (typeof value !== 'string') throw invalidParams(`Invalid params: ${what} must be a base58 string`)
  if (!isSignature(value)) throw invalidParams(`Invalid param: ${what} \`${value}\` is not a valid signature`)
  return value
}

export function string(params: readonly unknown[], index: number, what: string): string {
  const value = params[index]
  if (typeof value !== 'string') throw invalidParams(`Invalid params: ${what} must be a string`)
  return value
}

export function array(params: readonly unknown[], index: number, what: string, max: number): unknown[] {
  const value = params[index]
  if (!Array.isArray(value)) throw invalidParams(`Invalid params: ${what} must be an array`)
  if (value.length > max) throw invalidParams(`Too many inputs provided; max ${max}`)
  return value
}

export function u64(value: unknown, what: string): bigint {
  const number = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value
  if (typeof number !== 'bigint' || number < 0n || number >= 2n ** 64n) {
    throw invalidParams(`Invalid params: ${what} must be an unsigned 64-bit integer`)
  }
  return number
}

/** The trailing config object; absent or null reads as empty. */
export function config(params: readonly unknown[], index: number): Config {
  const value = params[index]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams(`Invalid params: parameter ${index + 1} must be a config object`)
  }
  return value as Config
}

/** The node's default, and web3.js's when a Connection has none, is `finalized`. */
export function commitment(config: Config, key = 'commitment'): Commitment {
  const value = config[key]
  if (value === undefined || value === null) return 'finalized'
  const known = typeof value === 'string' ? commitments[value] : undefined
  if (!known) {
    throw invalidParams(
      `Invalid params: unknown ${key} \`${String(value)}\`, expected processed, confirmed or finalized`,
    )
  }
  return known
}

export function oneOf<T extends string>(config: Config, key: string, allowed: readonly T[], fallback: T): T {
  const value = config[key]
  if (value === undefined || value === null) return fallback
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T
  throw invalidParams(
    `Invalid params: unknown ${key} \`${String(value)}\`, expected one of ${allowed.join(', ')}`,
  )
}

export function optionalBoolean(config: Config, key: string): boolean | undefined {
  const value = config[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'boolean') throw invalidParams(`Invalid params: ${key} must be a boolean`)
  return value
}

export function optionalU64(config: Config, key: string): bigint | undefined {
  const value = config[key]
  return value === undefined || value === null ? undefined : u64(value, key)
}

export function optionalString(config: Config, key: string): string | undefined {
  const value = config[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw invalidParams(`Invalid params: ${key} must be a string`)
  return value
}

export function optionalRecord(config: Config, key: string): Config | undefined {
  const value = config[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams(`Invalid params: ${key} must be an object`)
  }
  return value as Config
}
