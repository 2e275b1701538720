/** Balances are truncated (never rounded, so nobody sees more than they hold) to 3 decimals, `0.000` when unknown. */

/**
 * A decimal amount (as the API gives it, `"9999.99958"`) truncated to `fractionDigits`, never rounded.
 * @example formatQuantity('9999.99958') // '9999.999'
 */
export function formatQuantity(numeric: string | undefined, fractionDigits = 3): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(numeric ?? '')
  if (!match) return (0).toFixed(fractionDigits)
  const [, sign = '', whole = '0', fraction = ''] = match
  const digits = fraction.slice(0, fractionDigits).padEnd(fractionDigits, '0')
  const zero = /^0*$/.test(whole) && /^0*$/.test(digits)
  const text = fractionDigits > 0 ? `${BigInt(whole)}.${digits}` : `${BigInt(whole)}`
  return sign && !zero ? `-${text}` : text
}

/**
 * US dollars (the API's currency) with 2 decimals and the separators of `locale`, by default the visitor's.
 * @example formatFiat(1250.5, 'en-US') // '$1,250.50'
 */
export function formatFiat(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(value)
}

/**
 * An address shortened for display; the full address stays in the title and for screen readers.
 * @example truncateAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // '0xf39F…2266'
 */
export function truncateAddress(address: string): string {
  const head = address.startsWith('0x') ? 6 : 4
  if (address.length <= head + 6) return address
  return `${address.slice(0, head)}…${address.slice(-4)}`
}
