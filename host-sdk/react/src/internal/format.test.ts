import { describe, expect, it } from 'vitest'
import { formatAmount, shortAddress } from './format.ts'

describe('formatAmount', () => {
  it('truncates to 3 decimals, never rounding up past what is held', () => {
    expect(formatAmount(1_999_999_999_999_999_999n, 18, 'en-US')).toBe('1.999')
    expect(formatAmount(10_000n * 10n ** 18n, 18, 'en-US')).toBe('10,000.000')
    expect(formatAmount(5n, 18, 'en-US')).toBe('0.000')
  })

  it("writes the reader's locale's separators", () => {
    expect(formatAmount(1_234_500_000n, 6, 'de-DE')).toBe('1.234,500')
  })

  it('handles currencies with fewer than 3 decimals', () => {
    expect(formatAmount(12_345n, 2, 'en-US')).toBe('123.450')
    expect(formatAmount(7n, 0, 'en-US')).toBe('7.000')
  })
})

describe('shortAddress', () => {
  it('keeps the start and end of a long address, and a short one whole', () => {
    expect(shortAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266')
    expect(shortAddress('abc')).toBe('abc')
  })
})
