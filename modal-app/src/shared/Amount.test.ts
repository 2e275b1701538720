import { describe, expect, it } from 'vitest'
import { amountTexts, formatUnits, parseAmount } from './Amount.ts'

describe('parseAmount', () => {
  it('reads plain decimals exactly, in base units', () => {
    expect(parseAmount('1.5', 18, 'ETH')).toEqual({ ok: true, value: 1_500_000_000_000_000_000n })
    expect(parseAmount('0.1', 18, 'ETH')).toEqual({ ok: true, value: 100_000_000_000_000_000n })
    expect(parseAmount(' .25 ', 6, 'USDC')).toEqual({ ok: true, value: 250_000n })
    expect(parseAmount('7.', 8, 'rLTC')).toEqual({ ok: true, value: 700_000_000n })
    expect(parseAmount('123456789012345678901234567890', 0, 'X')).toEqual({
      ok: true,
      value: 123456789012345678901234567890n,
    })
  })

  it('refuses signs, exponents, grouping and words', () => {
    for (const text of [
      '-1',
      '+1',
      '1e18',
      '1E3',
      '1,000.5',
      '1 000',
      'abc',
      '',
      '.',
      '0x10',
      '1.2.3',
      'Infinity',
    ])
      expect(parseAmount(text, 18, 'ETH'), text).toEqual({ ok: false, error: amountTexts.invalidAmount })
  })

  it('refuses more decimals than the asset has, never rounding', () => {
    expect(parseAmount('1.0000001', 6, 'USDC')).toEqual({
      ok: false,
      error: amountTexts.tooManyDecimals('USDC', 6),
    })
    expect(parseAmount('1.5', 0, 'ITEM')).toEqual({ ok: false, error: 'ITEM has no decimals' })
    // Trailing zeros add no precision.
    expect(parseAmount('1.500000000', 6, 'USDC')).toEqual({ ok: true, value: 1_500_000n })
  })

  it('refuses zero', () => {
    expect(parseAmount('0.000', 18, 'ETH')).toEqual({ ok: false, error: amountTexts.zeroAmount })
  })

  it("takes the locale's decimal comma where people write one", () => {
    expect(parseAmount('1,5', 9, 'SOL', 'de-DE')).toEqual({ ok: true, value: 1_500_000_000n })
    expect(parseAmount('1,5', 9, 'SOL', 'en-US')).toEqual({ ok: false, error: amountTexts.invalidAmount })
  })
})

describe('formatUnits', () => {
  it('writes every digit and drops trailing zeros', () => {
    expect(formatUnits(1_500_000_000_000_000_000n, 18)).toBe('1.5')
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001')
    expect(formatUnits(-2_000_000n, 6)).toBe('-2')
    expect(formatUnits(42n, 0)).toBe('42')
  })
})
