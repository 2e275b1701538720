/**
 * CAIP-2 network ids (`eip155:1`, https://chainagnostic.org/CAIPs/caip-2) and CAIP-10 account ids
 * (`eip155:1:0xab…`, https://chainagnostic.org/CAIPs/caip-10). Their error texts are shown to people
 * as they are, so they never change.
 */
import { InvalidParamsError } from './Errors.ts'

/** The chain namespaces Airlock speaks. */
export const namespaces = ['eip155', 'solana', 'bip122'] as const
export type Namespace = (typeof namespaces)[number]

export type ChainId = `${Namespace}:${string}`
export type AccountId = `${Namespace}:${string}:${string}`

/**
 * Wallet Standard names chains by cluster or network (`solana:devnet`), CAIP-2 by genesis hash: the chains
 * both name, as Wallet Standard name → CAIP-2 id.
 */
export const standardChains: Readonly<Record<string, ChainId>> = {
  'solana:mainnet': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:testnet': 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  'bitcoin:mainnet': 'bip122:000000000019d6689c085ae165831e93',
  'bitcoin:testnet': 'bip122:000000000933ea01ad0ee984209779ba',
  'bitcoin:regtest': 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
}

/**
 * The Wallet Standard name of a CAIP-2 chain, if it has one.
 * @example Caip.standardNameOf('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1') // 'solana:devnet'
 */
export function standardNameOf(chainId: string): `${string}:${string}` | undefined {
  return Object.keys(standardChains).find((name) => standardChains[name] === chainId) as
    | `${string}:${string}`
    | undefined
}

export const invalidChainId = 'Invalid CAIP-2 network id'
export const invalidAccountId = 'Invalid CAIP-10 address'

// CAIP-2: namespace [-a-z0-9]{3,8}, reference [-_a-zA-Z0-9]{1,32}; CAIP-10 account [-.%a-zA-Z0-9]{1,128}.
const referencePattern = /^[-_a-zA-Z0-9]{1,32}$/
const accountPattern = /^[-.%a-zA-Z0-9]{1,128}$/

export function isNamespace(value: unknown): value is Namespace {
  return typeof value === 'string' && (namespaces as readonly string[]).includes(value)
}

/**
 * @example
 * Caip.parseChainId('eip155:1') // { namespace: 'eip155', reference: '1' }
 */
export function parseChainId(id: string): { namespace: Namespace; reference: string } {
  const parts = typeof id === 'string' ? id.split(':') : []
  const [namespace, reference] = parts
  if (parts.length !== 2 || !isNamespace(namespace) || !reference || !referencePattern.test(reference))
    throw new InvalidParamsError(invalidChainId)
  return { namespace, reference }
}

/** @example Caip.formatChainId('eip155', 31337) // 'eip155:31337' */
export function formatChainId(namespace: Namespace, reference: string | number): ChainId {
  const id = `${namespace}:${reference}`
  parseChainId(id)
  return id as ChainId
}

/**
 * @example
 * Caip.parseAccountId('eip155:1:0xab…') // { namespace: 'eip155', reference: '1', chainId: 'eip155:1', address: '0xab…' }
 */
export function parseAccountId(id: string): {
  namespace: Namespace
  reference: string
  chainId: ChainId
  address: string
} {
  const parts = typeof id === 'string' ? id.split(':') : []
  const [namespace, reference, address] = parts
  if (
    parts.length !== 3 ||
    !isNamespace(namespace) ||
    !reference ||
    !referencePattern.test(reference) ||
    !address ||
    !accountPattern.test(address)
  )
    throw new InvalidParamsError(invalidAccountId)
  return { namespace, reference, chainId: `${namespace}:${reference}`, address }
}

/** @example Caip.formatAccountId('eip155:1', '0xab…') // 'eip155:1:0xab…' */
export function formatAccountId(chainId: string, address: string): AccountId {
  const id = `${chainId}:${address}`
  parseAccountId(id)
  return id as AccountId
}

export function isChainId(value: unknown): value is ChainId {
  try {
    parseChainId(value as string)
    return true
  } catch {
    return false
  }
}

export function isAccountId(value: unknown): value is AccountId {
  try {
    parseAccountId(value as string)
    return true
  } catch {
    return false
  }
}

/** EIP-155 chain id as the `0x…` hex that EIP-1193 `eth_chainId` returns. */
export function toHexChainId(chainId: string): `0x${string}` {
  const { namespace, reference } = parseChainId(chainId)
  if (namespace !== 'eip155' || !/^\d+$/.test(reference)) throw new InvalidParamsError(invalidChainId)
  return `0x${BigInt(reference).toString(16)}`
}
