/**
 * JSON.parse that keeps large integers exact: a Solana node writes u64 balances as JSON numbers, and the
 * faucet's (half a billion SOL, 5·10¹⁷ lamports) is past 2⁵³, where a double drops the last digits and the
 * balance changes an indexer subtracts come out wrong. Integers of 16 digits or more are read as strings.
 */

/** @example BigJson.parse('{"a":500000000000000001}') // { a: '500000000000000001' } */
export function parse(text: string): unknown {
  let out = ''
  let copied = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') {
      inString = true
      continue
    }
    if (c !== '-' && !(c !== undefined && c >= '0' && c <= '9')) continue
    let end = i + 1
    while (end < text.length && /[0-9.eE+-]/.test(text[end] ?? '')) end++
    const token = text.slice(i, end)
    if (/^-?\d{16,}$/.test(token)) {
      out += `${text.slice(copied, i)}"${token}"`
      copied = end
    }
    i = end - 1
  }
  return JSON.parse(out + text.slice(copied))
}
