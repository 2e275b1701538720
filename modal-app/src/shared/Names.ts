/**
 * Names through the API's profile routes (docs/behaviour.md §7): what a name resolves to on an EVM chain, for Send's
 * receiver and the names feature. Chunks that need it import it; the first chunk does not.
 */
import * as Contract from '@airlock/api/contract'
import * as ApiCall from './ApiCall.ts'
import { nameTexts } from './nameTexts.ts'

/** docs/behaviour.md §8. */

/** ENSIP-9's coin type of Ethereum, which names answer for any EVM chain that has no address of its own. */
const ethereumCoinType = '60'
/** ENSIP-11: an EVM chain's coin type. */
const coinTypeOf = (chainId: number) => String((0x8000_0000 | chainId) >>> 0)

/**
 * Whether the visitor typed a name rather than an address: dotted labels with at least one letter, never
 * hex alone (`alice.eth`, `newcomer.airlock.id`).
 */
export function isName(text: string): boolean {
  const trimmed = text.trim()
  return /^[^\s./][^\s/]*\.[^\s./]+$/.test(trimmed) && !/^0x[0-9a-fA-F]*$/.test(trimmed)
}

/**
 * The address a name gives on `chainId` (CAIP-2, `eip155:…`): the chain's own (ENSIP-11), else Ethereum's.
 * @throws Error with docs/behaviour.md §8's 'Error resolving name' when the API cannot say, or the name has no address.
 */
export async function resolve(
  endpoint: (path: string) => string,
  name: string,
  chainId: string,
): Promise<string> {
  let record: Contract.NameRecord
  try {
    record = await ApiCall.call(
      endpoint,
      `/v1/profile/account/${encodeURIComponent(name.trim())}`,
      Contract.nameRecord,
      {
        texts: { unreachable: nameTexts.resolveFailed, unexpected: nameTexts.resolveFailed },
      },
    )
  } catch (error) {
    if (!(error instanceof ApiCall.ApiCallError)) throw error
    if (error.status === 404) throw new Error(nameTexts.notFound(name.trim()), { cause: error })
    // The API's own words where it gave some, else docs/behaviour.md's.
    const worded = error.status > 0 && !error.message.startsWith('HTTP status code')
    throw new Error(worded ? error.message : nameTexts.resolveFailed, { cause: error })
  }

  const { addresses } = record
  const reference = Number(chainId.slice(chainId.indexOf(':') + 1))
  const address = addresses[coinTypeOf(reference)]?.address ?? addresses[ethereumCoinType]?.address
  if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(nameTexts.notFound(name.trim()))
  return address
}
