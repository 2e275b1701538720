/**
 * RFC 3339's `date-time` (§5.6), as EIP-4361's `Issued At`, `Expiration Time` and `Not Before` are written:
 * `2021-09-30T16:25:24Z`, any number of fraction digits, `Z` or a `±hh:mm` offset; "T" and "Z" in either
 * case, as the ABNF's strings are. Read with our own arithmetic, not `Date.parse`, whose accepted forms
 * vary by engine and which takes years below 100 for the 1900s.
 * @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6
 */

const pattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/** Why a text is not an RFC 3339 date-time that exists, or `undefined` when it is one. */
export function problem(value: string): string | undefined {
  const time = read(value)
  return typeof time === 'string' ? time : undefined
}

/**
 * Epoch milliseconds of an RFC 3339 date-time (fractions past the millisecond dropped), or `undefined`.
 * @example toTime('2021-09-30T18:25:24+02:00') // 1633019124000
 */
export function toTime(value: string): number | undefined {
  const time = read(value)
  return typeof time === 'number' ? time : undefined
}

function read(value: string): number | string {
  const match = pattern.exec(value)
  if (!match) return 'must be an RFC 3339 date-time, such as 2021-09-30T16:25:24Z'
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const leapYear = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = [31, leapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  if (days === undefined || day < 1 || day > days) return `names a day that does not exist (${value})`
  // RFC 3339 allows :60 on a leap second only; none has been inserted since 2016 and JavaScript time
  // cannot hold one, so a sign-in message never needs it.
  if (hour > 23 || minute > 59 || second > 59) return `names a time of day that does not exist (${value})`
  const [, , , , , , , fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)
    return `has an offset that does not exist (${value})`
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')))
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000
  return date.getTime() - (sign === '-' ? -offset : offset)
}
