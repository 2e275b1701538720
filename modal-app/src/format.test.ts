import { describe, expect, it } from 'vitest'
import { formatBalance, truncateAddress } from './format.ts'

describe('formatBalance', () => {
  it('shows 0.000 when the balance is unknown', () => {
    expect(formatBalance(undefined, 18)).toBe('0.000')
  })

  it('shows zero as 0.000', () => {
    expect(formatBalance(0n, 18)).toBe('0.000')
  })

  it('truncates to 3 decimals instead of rounding', () => {
    expect(formatBalance(9_999_999_580_000_000_000_000n, 18)).toBe('9999.999')
    expect(formatBalance(1_999_900_000_000_000_000n, 18)).toBe('1.999')
    expect(formatBalance(999_999_999_999_999n, 18)).toBe('0.000')
  })

  it('pads short fractions', () => {
    expect(formatBalance(10_000n * 10n ** 18n, 18)).toBe('10000.000')
    expect(formatBalance(1_050_000_000_000_000_000n, 18)).toBe('1.050')
  })

  it('handles other decimals (SOL 9, BTC 8)', () => {
    expect(formatBalance(1_234_567_891n, 9)).toBe('1.234')
    expect(formatBalance(123_456_789n, 8)).toBe('1.234')
    expect(formatBalance(5n, 0)).toBe('5.000')
  })

  it('keeps the sign of a negative amount', () => {
    expect(formatBalance(-1_500_000_000_000_000_000n, 18)).toBe('-1.500')
  })
})

describe('truncateAddress', () => {
  it('keeps the start and the last 4 characters', () => {
    expect(truncateAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266')
    expect(truncateAddress('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080')).toBe('bcrt…t080')
  })

  it('leaves short addresses alone', () => {
    expect(truncateAddress('0xabc')).toBe('0xabc')
  })
})
