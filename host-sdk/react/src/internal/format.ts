/** How `<ConnectButton/>` writes amounts and addresses. */

/**
 * An amount in base units as the modal shows it: truncated (never rounded up past what is held) to 3
 * decimals, with the reader's locale's separators.
 * @example formatAmount(10_000n * 10n ** 18n, 18, 'en-US') // '10,000.000'
 */
export function formatAmount(value: bigint, decimals: number, locale?: string): string {
  const unit = 10n ** BigInt(decimals)
  const whole = value / unit
  const fraction = ((value % unit) * 1000n) / unit
  const separator = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')
  return `${whole.toLocaleString(locale)}${separator?.value ?? '.'}${fraction.toString().padStart(3, '0')}`
}

/** `0x1234…abcd`: enough to recognise an address, short enough for a button. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}
