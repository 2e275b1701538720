import { describe, expect, it } from 'vitest'
import { formatFiat, formatQuantity, truncateAddress } from './format.ts'

describe('formatQuantity', () => {
  it('shows 0.000 when the amount is unknown or unreadable', () => {
    expect(formatQuantity(undefined, 'en-US')).toBe('0.000')
    expect(formatQuantity('1e21', 'en-US')).toBe('0.000')
    expect(formatQuantity('', 'de-DE')).toBe('0,000')
  })

  it('truncates to 3 decimals instead of rounding', () => {
    expect(formatQuantity('9999.99958', 'en-US')).toBe('9,999.999')
    expect(formatQuantity('1.9999', 'en-US')).toBe('1.999')
    expect(formatQuantity('0.000999999999999999', 'en-US')).toBe('0.000')
  })

  it('pads short fractions and whole amounts', () => {
    expect(formatQuantity('10000', 'en-US')).toBe('10,000.000')
    expect(formatQuantity('1.05', 'en-US')).toBe('1.050')
    expect(formatQuantity('5', 'en-US', 0)).toBe('5')
    expect(formatQuantity('1234567.5', 'en-US', 0)).toBe('1,234,567')
  })

  it('keeps huge amounts exact', () => {
    expect(formatQuantity('123456789012345678901234567890.123456', 'en-US')).toBe(
      '123,456,789,012,345,678,901,234,567,890.123',
    )
    expect(formatQuantity('00012345678901234567890.9999', 'de-DE')).toBe('12.345.678.901.234.567.890,999')
  })

  it('keeps the sign of a negative amount, not of a zero', () => {
    expect(formatQuantity('-1.5', 'en-US')).toBe('-1.500')
    expect(formatQuantity('-1234.5', 'de-DE')).toBe('-1.234,500')
    expect(formatQuantity('-0.0001', 'en-US')).toBe('0.000')
    expect(formatQuantity('-0', 'de-DE')).toBe('0,000')
    expect(formatQuantity('0', 'en-US')).toBe('0.000')
  })

  it("uses the grouping and decimal separator of the visitor's locale", () => {
    expect(formatQuantity('9999.999', 'de-DE')).toBe('9.999,999')
    expect(formatQuantity('1234567.891', 'fr-FR')).toBe('1\u202f234\u202f567,891')
    // Indian grouping: 3 digits, then 2s.
    expect(formatQuantity('123456789.5', 'hi-IN')).toBe('12,34,56,789.500')
    // Spanish leaves a 4-digit whole ungrouped.
    expect(formatQuantity('1234.5', 'es-ES')).toBe('1234,500')
    expect(formatQuantity('12345.5', 'es-ES')).toBe('12.345,500')
  })

  it('writes the digits and minus of locales with their own numbering', () => {
    expect(formatQuantity('1234.5', 'ar-EG')).toBe('١٬٢٣٤٫٥٠٠')
    expect(formatQuantity('-1234.5', 'ar-EG')).toBe('\u061c-١٬٢٣٤٫٥٠٠')
    expect(formatQuantity('-1234.5', 'fa')).toBe('\u200e−۱٬۲۳۴٫۵۰۰')
  })

  it('reads as Intl writes the same amount truncated, in every locale the runtime has', () => {
    const locales = [
      'en-US',
      'de-DE',
      'fr-FR',
      'ar',
      'ar-EG',
      'fa',
      'he',
      'hi-IN',
      'es-ES',
      'pt-BR',
      'ja',
      'bn',
    ]
    const amounts = ['0.5', '7', '999.9999', '1234.5678', '-98765.4321', '12345678.001', '-1000000']
    for (const locale of locales)
      for (const amount of amounts) {
        const intl = new Intl.NumberFormat(locale, {
          minimumFractionDigits: 3,
          maximumFractionDigits: 3,
          roundingMode: 'trunc',
        })
        expect(formatQuantity(amount, locale), `${amount} in ${locale}`).toBe(intl.format(Number(amount)))
      }
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
