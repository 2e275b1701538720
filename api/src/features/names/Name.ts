/**
 * What a project name may be (docs/behaviour.md §5): a label of at least 4 letters, digits or hyphens before the suffix,
 * normalised with ENSIP-15 (viem's `normalize`, ENS's own rules) so that `Alice` and `alice` are one name and
 * look-alikes (`аррӏе`, Cyrillic, for `apple`) are refused. And ENSIP-11's coin types: which chain a
 * registration's address is on.
 */
import { normalize } from 'viem/ens'
import { nameMinLength, nameTexts } from '../../contract/names.ts'
import { HttpError } from '../../http/errors.ts'

export type Parsed = {
  /** The whole normalised name: `newcomer.airlock.id`. */
  name: string
  /** The part before the suffix: `newcomer`. */
  label: string
}

/** Letters and digits of any script, and the hyphen. */
const allowed = /^[\p{L}\p{N}-]+$/u

/**
 * Normalises any ENS name (`Alice.eth` → `alice.eth`), refusing what ENSIP-15 refuses with the API's texts.
 * @throws {HttpError} 400 `confusable` for look-alike mixtures, else 400 `illegal`
 */
export function normalized(input: string): string {
  try {
    return normalize(input)
  } catch (error) {
    // ENSIP-15's reasons: "illegal mixture: Cyrillic + Latin", "whole-script confusable: …", or another rule.
    const confusable = /confusable|mixture/.test((error as Error).message)
    throw new HttpError(400, confusable ? nameTexts.confusable : nameTexts.illegal)
  }
}

/**
 * A project name, whole (`newcomer.airlock.id`), checked against the suffix and the product's rules (docs/behaviour.md §5).
 * @example
 * Name.parse('Newcomer.airlock.id', 'airlock.id') // { name: 'newcomer.airlock.id', label: 'newcomer' }
 * @throws {HttpError} 400 with one of `nameTexts`
 */
export function parse(input: string, suffix: string): Parsed {
  const name = normalized(input)
  if (!name.endsWith(`.${suffix}`)) throw new HttpError(400, nameTexts.wrongSuffix(suffix))
  const label = name.slice(0, -(suffix.length + 1))
  if (!allowed.test(label)) throw new HttpError(400, nameTexts.illegal)
  // Counted in code points: `café` is 4 characters, as a person counts it.
  if ([...label].length < nameMinLength) throw new HttpError(400, nameTexts.tooShort)
  return { name, label }
}

/** The whole name of a wanted one: a label gets the suffix, a whole name stays as it is. */
export function whole(wanted: string, suffix: string): string {
  return wanted.toLowerCase().endsWith(`.${suffix}`) ? wanted : `${wanted}.${suffix}`
}

/** ENSIP-11: an EVM chain's coin type is `0x80000000 | chainId`; Ethereum's is ENSIP-9's `60`. */
const evmCoinTypeBase = 0x8000_0000
export const ethereumCoinType = 60

/**
 * The CAIP-2 chain of a coin type, for checking a signature there.
 * @throws {HttpError} 400 'Invalid chainId' for a chain id of 2^31 or more (no coin type can carry it),
 *   400 'Chain is not supported' for a coin type of another family (names are EVM only: docs/behaviour.md §9)
 */
export function chainOf(coinType: number): `eip155:${number}` {
  if (coinType === ethereumCoinType) return 'eip155:1'
  if (!Number.isInteger(coinType) || coinType > 0xffff_ffff)
    throw new HttpError(400, nameTexts.invalidChainId)
  if (coinType < evmCoinTypeBase) throw new HttpError(400, nameTexts.unsupportedChain)
  return `eip155:${coinType - evmCoinTypeBase}`
}

/** Whether a coin type is an EVM chain's (ENSIP-9's 60, or ENSIP-11's), whose addresses are 20 bytes. */
export function isEvm(coinType: bigint): boolean {
  return coinType === BigInt(ethereumCoinType) || (coinType >= evmCoinTypeBase && coinType <= 0xffff_ffff)
}

/** Whether a coin type stands for any EVM chain: 60 (what `addr(node)` answers) or ENSIP-19's default, chain 0. */
export function isDefaultEvm(coinType: bigint): boolean {
  return coinType === BigInt(ethereumCoinType) || coinType === BigInt(evmCoinTypeBase)
}

/** Free variants of a label, in the order they are offered. */
export function variants(label: string): string[] {
  return [
    ...[1, 2, 3].map((n) => `${label}${n}`),
    `the${label}`,
    `${label}hq`,
    `${label}-id`,
    ...[4, 5, 6, 7, 8, 9].map((n) => `${label}${n}`),
  ]
}
