import { describe, expect, it } from 'vitest'
import { formatFiat, formatQuantity, truncateAddress } from './format.ts'

describe('formatQuantity', () => {
  it('shows 0.000 when the amount is unknown or unreadable', () => {
    expect(formatQuantity(undefined)).toBe('0.000')
    expect(formatQuantity('1e21')).toBe('0.000')
    expect(formatQuantity('')).toBe('0.000')
  })

  it('truncates to 3 decimals instead of rounding', () => {
    expect(formatQuantity('9999.99958')).toBe('9999.999')
    expect(formatQuantity('1.9999')).toBe('1.999')
    expect(formatQuantity('0.000999999999999999')).toBe('0.000')
  })

  it('pads short fractions and whole amounts', () => {
    expect(formatQuantity('10000')).toBe('10000.000')
    expect(formatQuantity('1.05')).toBe('1.050')
    expect(formatQuantity('5', 0)).toBe('5')
  })

  it('keeps huge amounts exact', () => {
    expect(formatQuantity('123456789012345678901234567890.123456')).toBe('123456789012345678901234567890.123')
  })

  it('keeps the sign of a negative amount, not of a zero', () => {
    expect(formatQuantity('-1.5')).toBe('-1.500')
    expect(formatQuantity('-0.0001')).toBe('0.000')
  })
})

describe('formatFiat', () => {
  it('shows dollars with 2 decimals and grouping', () => {
    expect(formatFiat(1250.5, 'en-US')).toBe('$1,250.50')
    expect(formatFiat(0, 'en-US')).toBe('$0.00')
  })

  it("uses the separators of the visitor's locale", () => {
    expect(formatFiat(1250.5, 'de-DE')).toBe('1.250,50\u00a0$')
    expect(formatFiat(1234567.891, 'fr-FR')).toBe('1\u202f234\u202f567,89\u00a0$US')
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
