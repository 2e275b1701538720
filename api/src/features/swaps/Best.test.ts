import { describe, expect, it } from 'vitest'
import type { Chain } from '../../Config.ts'
import { nativeToken } from '../../contract/index.ts'
import type { PriceSource } from '../balances/Prices.ts'
import type { Asset, Quote, SwapAdapter } from './Adapter.ts'
import * as Best from './Best.ts'

const chain = {
  id: 'eip155:1',
  name: 'Ethereum',
  rpcUrl: 'http://127.0.0.1:1',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
} as Chain
const eth: Asset = { address: nativeToken, native: true, symbol: 'ETH', decimals: 18 }
const usdc: Asset = {
  address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  native: false,
  symbol: 'USDC',
  decimals: 6,
}
const dai: Asset = {
  address: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
  native: false,
  symbol: 'DAI',
  decimals: 18,
}
const venue = (id: string) => ({ id, name: id, spender: nativeToken }) as unknown as SwapAdapter
const quote = (fields: Partial<Quote>): Quote => ({
  venue: 'v',
  from: eth,
  to: usdc,
  type: 'exactInput',
  blockNumber: 1n,
  fromAmount: 10n ** 18n,
  toAmount: 3000_000000n,
  route: [eth.address, usdc.address],
  fees: [3000],
  priceImpact: 0,
  gas: 100_000n,
  ...fields,
})
const noPrices: PriceSource = { prices: async () => [] }
const gwei = 10n ** 9n

describe('the best way across venues', () => {
  it('takes the output net of gas: 1 USDC more is not worth 200,000 gas more at 10 gwei ($6 at the quote’s rate)', async () => {
    const cheap = quote({ venue: 'a' })
    const dear = quote({
      venue: 'b',
      toAmount: 3001_000000n,
      gas: 300_000n,
      route: [eth.address, dai.address, usdc.address],
      fees: [500, 100],
    })
    const answers = [
      { venue: venue('b'), quotes: [dear] },
      { venue: venue('a'), quotes: [cheap] },
    ]
    const worth = await Best.gasWorth([cheap, dear], { chain, gasPrice: 10n * gwei, prices: noPrices })
    // 100,000 gas at 10 gwei is 0.001 ETH: $3 at the quote's own 3,000 USDC per ETH.
    expect(worth(cheap)).toBe(3_000000n)
    expect(Best.pick(answers, worth).map((ranked) => ranked.venue.id)).toEqual(['a', 'b'])
    // With gas free, the larger output wins.
    expect(Best.pick(answers, () => 0n).map((ranked) => ranked.venue.id)).toEqual(['b', 'a'])
  })

  it('for an exact output, takes the least input plus gas, valued in the input', async () => {
    const a = quote({
      venue: 'a',
      type: 'exactOutput',
      from: usdc,
      to: eth,
      fromAmount: 3010_000000n,
      toAmount: 10n ** 18n,
    })
    const b = quote({
      venue: 'b',
      type: 'exactOutput',
      from: usdc,
      to: eth,
      fromAmount: 3008_000000n,
      toAmount: 10n ** 18n,
      gas: 400_000n,
    })
    const worth = await Best.gasWorth([a, b], { chain, gasPrice: 10n * gwei, prices: noPrices })
    expect(
      Best.pick(
        [
          { venue: venue('a'), quotes: [a] },
          { venue: venue('b'), quotes: [b] },
        ],
        worth,
      )[0]?.venue.id,
    ).toBe('a')
  })

  it('between two tokens, values the gas at the price source’s USD prices, or not at all without them', async () => {
    const swap = quote({ from: dai, to: usdc, fromAmount: 3000n * 10n ** 18n, toAmount: 2999_000000n })
    const prices: PriceSource = {
      prices: async (assets) =>
        assets.flatMap(({ chainId, address }) => {
          const price = { [nativeToken]: 3000, [usdc.address.toLowerCase()]: 1 }[address]
          return price === undefined ? [] : [{ chainId, address, price, name: '', symbol: '', iconUrl: null }]
        }) as never,
    }
    expect((await Best.gasWorth([swap], { chain, gasPrice: 10n * gwei, prices }))(swap)).toBe(3_000000n)
    expect((await Best.gasWorth([swap], { chain, gasPrice: 10n * gwei, prices: noPrices }))(swap)).toBe(0n)
  })

  it('keeps the route with fewer pools when two give the same', () => {
    const direct = quote({})
    const through = quote({ route: [eth.address, dai.address, usdc.address], fees: [500, 100] })
    const [best] = Best.pick([{ venue: venue('a'), quotes: [through, direct] }], () => 0n)
    expect(best?.quote.route).toHaveLength(2)
  })
})
