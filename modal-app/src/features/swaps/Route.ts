/** How a swap's way reads: its pools' tokens by symbol, each hop's fee, and the venue that makes it. */
import { truncateAddress } from '../../shared/format.ts'
import type { Token } from './Form.ts'

/** A route step's symbol: a listed token's, else the contract's shortened address (a pool's wrapped token). */
function symbolOf(id: string, tokens: readonly Token[]): string {
  const listed = tokens.find((token) => token.id.toLowerCase() === id.toLowerCase())
  if (listed) return listed.symbol
  const address = id.slice(id.lastIndexOf(':') + 1)
  return truncateAddress(address)
}

/**
 * The route as the visitor reads it, with each hop's pool fee (hundredths of a basis point) in percent.
 * @example routeText([eth, tusd], [500], tokens) // 'ETH → tUSD (0.05 %)'
 */
export function routeText(
  route: readonly string[],
  fees: readonly number[],
  tokens: readonly Token[],
): string {
  const path = route.map((id) => symbolOf(id, tokens)).join(' → ')
  return fees.length ? `${path} (${fees.map((fee) => `${fee / 10_000} %`).join(' + ')})` : path
}
