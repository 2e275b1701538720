import { describe, expect, it } from 'vitest'
import { priceImpact } from './UniswapV2.ts'

/** Uniswap v2's `getAmountOut`: the 0.3 % fee taken from what goes in. */
const amountOut = (amount: bigint, reserveIn: bigint, reserveOut: bigint) =>
  (amount * 997n * reserveOut) / (reserveIn * 1000n + amount * 997n)

describe('priceImpact', () => {
  const ether = 10n ** 18n

  it('is how far the pool moves for the swap, its fee not counted: 1 ETH in 100 is 1 − 100/101 ≈ 0.99 %', () => {
    const out = amountOut(ether, 100n * ether, 300_000n * 10n ** 6n)
    expect(priceImpact(ether, out, [{ in: 100n * ether, out: 300_000n * 10n ** 6n }])).toBeCloseTo(0.9872, 4)
  })

  it('adds up along a route, and is about nothing for a swap far smaller than the pools', () => {
    const pools = [
      { in: 240_000n * ether, out: 100n * ether },
      { in: 100n * ether, out: 300_000n * 10n ** 6n },
    ]
    const small = 10n * ether
    const viaWeth = amountOut(
      amountOut(small, pools[0]?.in ?? 0n, pools[0]?.out ?? 0n),
      pools[1]?.in ?? 0n,
      pools[1]?.out ?? 0n,
    )
    expect(priceImpact(small, viaWeth, pools)).toBeLessThan(0.01)
    const large = 24_000n * ether
    const out = amountOut(
      amountOut(large, pools[0]?.in ?? 0n, pools[0]?.out ?? 0n),
      pools[1]?.in ?? 0n,
      pools[1]?.out ?? 0n,
    )
    // 10 % of the first pool moves it about 9 %, and the ETH it gives moves the second about 9 % more.
    expect(priceImpact(large, out, pools)).toBeGreaterThan(16)
    expect(priceImpact(large, out, pools)).toBeLessThan(18)
  })

  it('stays within 0..100 for reserves that say nothing', () => {
    expect(priceImpact(1n, 0n, [{ in: 1n, out: 0n }])).toBe(0)
    expect(priceImpact(ether, 0n, [{ in: ether, out: ether }])).toBe(100)
  })
})
