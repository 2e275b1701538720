import { describe, expect, it } from 'vitest'
import * as Tokens from './Tokens.ts'

describe('Tokens.uiAmount', () => {
  it.each([
    [0n, 6, '0'],
    [1n, 6, '0.000001'],
    [2_500_000n, 6, '2.5'],
    [1_000_000_000_000n, 6, '1000000'],
    [42n, 0, '42'],
  ])('formats %s with %s decimals as %s', (amount, decimals, text) => {
    expect(Tokens.uiAmount(amount, decimals)).toEqual({
      amount: amount.toString(),
      decimals,
      uiAmount: Number(text),
      uiAmountString: text,
    })
  })
})
