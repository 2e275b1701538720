/**
 * Providers name networks in their own words (MoonPay's `networkCode`, Coinbase's network `name`); the API
 * names them by CAIP-2. An EVM network a provider gives a chain id for is `eip155:<id>`; the others are
 * these, or the provider's configured `networks`.
 */

/** Mainnet codes both providers use for networks without an EVM chain id. */
const builtIn: Readonly<Record<string, string>> = {
  solana: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  bitcoin: 'bip122:000000000019d6689c085ae165831e93',
}

/** The CAIP-2 id of a provider's network, or `undefined` for one the API does not know. */
export function caip2Of(
  code: string,
  chainId: string | number | null | undefined,
  configured: Readonly<Record<string, string>> = {},
): string | undefined {
  const own = configured[code] ?? builtIn[code]
  if (own) return own
  const id = String(chainId ?? '')
  return /^\d{1,20}$/.test(id) ? `eip155:${id}` : undefined
}
