/** Display rules of SPEC §5: balances truncated (never rounded) to 3 decimals, `0.000` when unknown. */

/**
 * A token amount in its smallest unit as a decimal string truncated to `fractionDigits`.
 * @example formatBalance(9_999_999_580_000_000_000_000n, 18) // '9999.999'
 */
export function formatBalance(value: bigint | undefined, decimals: number, fractionDigits = 3): string {
  if (value === undefined) return (0).toFixed(fractionDigits)
  const negative = value < 0n
  const abs = negative ? -value : value
  const unit = 10n ** BigInt(decimals)
  const whole = abs / unit
  const scale = 10n ** BigInt(fractionDigits)
  // Truncate: multiply the remainder up and drop what does not fit, never round up.
  const fraction = ((abs % unit) * scale) / unit
  const text =
    fractionDigits > 0 ? `${whole}.${fraction.toString().padStart(fractionDigits, '0')}` : `${whole}`
  return negative && (whole > 0n || fraction > 0n) ? `-${text}` : text
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
