/**
 * Amounts as the visitor types them, to base units and back, exactly (no floating point: 0.1 ETH is
 * 100000000000000000 wei, not 99999999999999991611392). Only plain decimals are taken: a sign, an exponent
 * (`1e18`), grouping separators or more decimals than the asset has are refused, never rounded.
 */
import { formatQuantity } from './format.ts'
import { define } from './i18n/Catalogue.ts'
import * as Locale from './i18n/Locale.ts'

/** What a refused amount says (Send's and Swap's forms show these). */
export const amountTexts = define('amount', {
  invalidAmount: 'Enter an amount as digits, like 1.5',
  zeroAmount: 'The amount must be more than 0',
  tooManyDecimals: [
    '{decimals, plural, =0 {{symbol} has no decimals} other {{symbol} has at most # decimals}}',
    'symbol',
    'decimals',
  ],
})

export type Parsed = { ok: true; value: bigint } | { ok: false; error: string }

/** The locale's decimal separator (`,` in de-DE), so `1,5` reads as one and a half where people write it so. */
function decimalSeparator(locale?: string): string {
  const part = new Intl.NumberFormat(locale ?? Locale.current().tag)
    .formatToParts(1.5)
    .find((p) => p.type === 'decimal')
  return part?.value ?? '.'
}

/**
 * @example parseAmount('1.5', 18) // { ok: true, value: 1500000000000000000n }
 * @example parseAmount('1e3', 18) // { ok: false, error: 'Enter an amount as digits, like 1.5' }
 */
export function parseAmount(text: string, decimals: number, symbol: string, locale?: string): Parsed {
  let plain = text.trim()
  if (decimalSeparator(locale) === ',' && !plain.includes('.')) plain = plain.replace(',', '.')
  const match = /^(\d*)(?:\.(\d*))?$/.exec(plain)
  const [, whole = '', fraction = ''] = match ?? []
  if (!match || (whole === '' && fraction === '')) return { ok: false, error: amountTexts.invalidAmount }
  if (fraction.replace(/0+$/, '').length > decimals)
    return { ok: false, error: amountTexts.tooManyDecimals(symbol, decimals) }
  const value = BigInt(`${whole || '0'}${fraction.padEnd(decimals, '0').slice(0, decimals)}`)
  if (value === 0n) return { ok: false, error: amountTexts.zeroAmount }
  return { ok: true, value }
}

/**
 * An API's decimal quantity (`"12.5"`, already checked as digits) in base units, digits beyond `decimals`
 * dropped: what a balance answer holds, exactly, as a bigint.
 * @example baseUnits('12.5', 6) // 12500000n
 */
export function baseUnits(numeric: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = numeric.split('.')
  return BigInt(`${whole}${fraction.padEnd(decimals, '0').slice(0, decimals)}` || '0')
}

/**
 * Base units as a plain decimal, every digit kept, trailing zeros dropped.
 * @example formatUnits(1500000000000000000n, 18) // '1.5'
 */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/**
 * An amount with its symbol, every digit of it (what is signed must read exactly as it is: 0.0019 is not
 * 0.001), with the visitor's separators; signed when asked (`−1.25 ETH`).
 * @example formatExact(-1_250_000_000_000_000_000n, { decimals: 18, symbol: 'ETH' }, true) // '−1.25 ETH'
 */
export function formatExact(
  value: bigint,
  asset: { decimals: number; symbol: string },
  signed = false,
): string {
  const exact = formatUnits(value < 0n ? -value : value, asset.decimals)
  const text = formatQuantity(exact, undefined, exact.split('.')[1]?.length ?? 0)
  const sign = signed ? (value < 0n ? '−' : '+') : ''
  return `${sign}${text} ${asset.symbol}`
}
