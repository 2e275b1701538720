/** Balances are truncated (never rounded, so nobody sees more than they hold) to 3 decimals, `0.000` when unknown. */
import * as Locale from './i18n/Locale.ts'

/** How a locale writes numbers, learnt from Intl on a sample: its digits, separators, grouping and minus. */
type Notation = {
  digits: string[]
  group: string
  decimal: string
  /** The last group's size, and the size of the groups before it (3 and 2 in `12,34,567`). */
  sizes: [number, number]
  /** Whether a 4-digit whole is grouped (`1.234` in de-DE, `1234` in es-ES). */
  groupsFour: boolean
  /** What stands before and after a negative number (`-`, a bidi mark and `-`, …). */
  minus: [string, string]
}

const notations = new Map<string | undefined, Notation>()

function notationOf(locale: string | undefined): Notation {
  const known = notations.get(locale)
  if (known) return known
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: 1 })
  const parts = format.formatToParts(-1234567.5)
  const of = (type: string) => parts.filter((part) => part.type === type).map((part) => part.value)
  const join = (from: number, to?: number) =>
    parts
      .slice(from, to)
      .map((part) => part.value)
      .join('')
  const [first = '', second = first, last = ''] = of('integer').reverse()
  // Digits 1…9 then 0, in the locale's numbering system.
  const digits = [...new Intl.NumberFormat(locale, { useGrouping: false }).format(1234567890)]
  const notation: Notation = {
    digits: [digits[9] ?? '0', ...digits.slice(0, 9)],
    group: last ? (of('group')[0] ?? '') : '',
    decimal: of('decimal')[0] ?? '.',
    sizes: [first.length, second.length],
    groupsFour: format.formatToParts(1234).some((part) => part.type === 'group'),
    minus: [
      join(
        0,
        parts.findIndex((part) => part.type === 'integer'),
      ),
      join(parts.findIndex((part) => part.type === 'fraction') + 1),
    ],
  }
  notations.set(locale, notation)
  return notation
}

/** A whole number's digits in groups, as `notation` groups them. */
function grouped(whole: string, { group, sizes: [size, next], groupsFour }: Notation): string {
  if (!group || whole.length <= size + (groupsFour ? 0 : 1)) return whole
  const groups = [whole.slice(-size)]
  let rest = whole.slice(0, -size)
  for (; rest.length > next; rest = rest.slice(0, -next)) groups.unshift(rest.slice(-next))
  return [rest, ...groups].join(group)
}

/**
 * A decimal amount (as the API gives it, `"9999.99958"`) truncated to `fractionDigits`, never rounded,
 * written with the digits and separators of `locale`, by default the modal's (`i18n/Locale.ts`). Exact for any size: the
 * digits never go through a `Number`.
 * @example formatQuantity('9999.99958', 'en-US') // '9,999.999'
 */
export function formatQuantity(numeric: string | undefined, locale?: string, fractionDigits = 3): string {
  const notation = notationOf(locale ?? Locale.current().tag)
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(numeric ?? '')
  const [, sign = '', whole = '0', fraction = ''] = match ?? []
  const digits = fraction.slice(0, fractionDigits).padEnd(fractionDigits, '0')
  const zero = /^0*$/.test(whole + digits)
  const text = (
    grouped(BigInt(whole).toString(), notation) + (fractionDigits > 0 ? notation.decimal + digits : '')
  ).replace(/\d/g, (digit) => notation.digits[Number(digit)] ?? digit)
  return sign && !zero ? notation.minus[0] + text + notation.minus[1] : text
}

/**
 * US dollars (the API's currency) with 2 decimals and the separators of `locale`, by default the modal's.
 * @example formatFiat(1250.5, 'en-US') // '$1,250.50'
 */
export function formatFiat(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale ?? Locale.current().tag, { style: 'currency', currency: 'USD' }).format(
    value,
  )
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
