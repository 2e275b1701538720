/**
 * JSON text with exact 64-bit integers. Solana's wire format carries u64 values (lamports, `rentEpoch` of
 * u64::MAX, token supplies) as bare JSON numbers; `JSON.stringify` cannot write a bigint, and a Number would
 * round anything past 2^53. Every u64 therefore stays a bigint up to here and is written digit for digit,
 * which is what @solana/kit's parser expects and what web3.js reads as a plain number.
 */
export function stringify(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((item) => stringify(item ?? null)).join(',')}]`
  const fields: string[] = []
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || typeof field === 'function') continue
    fields.push(`${JSON.stringify(key)}:${stringify(field)}`)
  }
  return `{${fields.join(',')}}`
}
