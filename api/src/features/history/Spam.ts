/**
 * Spam NFTs: collections airdropped unasked to lure holders to a site. History leaves out a transaction
 * whose every transfer is one (docs/behaviour.md §5). A collection is spam when an operator says so ({@link mark}), or
 * when its name or symbol advertises: a link, a domain, or the lures such drops use.
 */
import type { Database } from '../../Database.ts'

const link =
  /https?:|www\.|t\.me\/|\b[a-z0-9-]+\.(com|io|xyz|org|net|app|site|top|club|online|live|gift|fun|lol|vip)\b/i
const lure = /\b(claim|reward|airdrop|voucher|visit|giveaway|free mint)\b/i

/**
 * Whether an NFT collection's own name or symbol marks it as spam.
 * @example Spam.advertises('Claim at eth-gift.xyz', 'GIFT') // true
 */
export function advertises(name: string, symbol: string): boolean {
  return [name, symbol].some((text) => link.test(text) || lure.test(text))
}

/**
 * Marks a token spam (or not) by hand; the next history page reflects it.
 * @returns whether the token is known (it is once a transfer of it was indexed)
 * @example await Spam.mark(db, 'eip155:1', '0xabc…', true)
 */
export async function mark(
  db: Pick<Database, 'query'>,
  chainId: string,
  address: string,
  spam: boolean,
): Promise<boolean> {
  const rows = await db.query(
    'update history_assets set is_spam = $3 where chain_id = $1 and address = $2 returning address',
    [chainId, address.toLowerCase(), spam],
  )
  return rows.length > 0
}
