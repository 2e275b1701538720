/**
 * The chain families the history indexer follows. A new family is a file beside this one implementing
 * {@link Family}, and a line here.
 */
import type { Family } from '../Source.ts'
import * as Bip122 from './bip122.ts'
import * as Eip155 from './eip155.ts'
import * as Solana from './solana.ts'

/** In the order the route tries them on an address: a Solana key (32 bytes) is never a Base58Check one. */
export const families: readonly Family[] = [Eip155.family, Solana.family, Bip122.family]

/** The family of a CAIP-2 chain id, if one is registered. */
export function familyOf(chainId: string): Family | undefined {
  return families.find((family) => chainId.startsWith(`${family.namespace}:`))
}
