import * as Contract from '@airlock/api/contract'
import { describe, expect, it } from 'vitest'
import { check, fiatFor, initial, withAsset } from './Form.ts'

const options: Contract.OnrampOptionsAnswer = {
  paymentCurrencies: [
    { id: 'EUR', limits: [{ id: 'card', min: '10.00', max: '7500.00' }] },
    { id: 'USD', limits: [{ id: 'card', min: '20.00', max: '5000.00' }] },
  ],
  purchaseCurrencies: [
    {
      id: 'tUSD',
      symbol: 'tUSD',
      name: 'Test USD',
      networks: [
        { chainId: 'eip155:31337', name: 'Anvil', contractAddress: `0x${'1'.repeat(40)}` },
        { chainId: 'eip155:31338', name: 'Anvil B', contractAddress: `0x${'2'.repeat(40)}` },
      ],
    },
    {
      id: 'ETH',
      symbol: 'ETH',
      name: 'Ether',
      networks: [{ chainId: 'eip155:31337', name: 'Anvil', contractAddress: null }],
    },
  ],
  providers: [{ id: 'sandbox', name: 'Sandbox' }],
}

describe('Buy form', () => {
  it("starts on the account's chain's own currency, paid in USD, through the first provider", () => {
    expect(initial(options, 'eip155:31337')).toEqual({
      amount: '',
      currency: 'USD',
      asset: 'ETH',
      network: 'eip155:31337',
      provider: 'sandbox',
    })
    // A chain without its own currency on sale: the first asset sold there.
    expect(initial(options, 'eip155:31338')).toMatchObject({ asset: 'tUSD', network: 'eip155:31338' })
  })

  it('starts on what a caller wanted (Pay’s shortfall) when it is sold, whatever the case of its symbol', () => {
    expect(initial(options, 'eip155:31337', { asset: 'tusd', network: 'eip155:31338' })).toMatchObject({
      asset: 'tUSD',
      network: 'eip155:31338',
    })
  })

  it('keeps the network when the new asset is sold there, else takes the asset’s first', () => {
    const form = { amount: '50', currency: 'USD', asset: 'tUSD', network: 'eip155:31338' }
    expect(withAsset(form, options, 'ETH').network).toBe('eip155:31337')
    expect(withAsset({ ...form, network: 'eip155:31337' }, options, 'tUSD').network).toBe('eip155:31337')
  })

  it("refuses amounts outside the currency's card limits in the API's exact words", () => {
    const form = { amount: '19.99', currency: 'USD', asset: 'ETH', network: 'eip155:31337' }
    expect(check(form, options)).toEqual({ ok: false, error: 'The minimum purchase is 20.00 USD' })
    expect(check({ ...form, amount: '5000.01' }, options)).toEqual({
      ok: false,
      error: 'The maximum purchase is 5000.00 USD',
    })
    expect(check({ ...form, amount: '10', currency: 'EUR' }, options)).toEqual({ ok: true, amount: '10' })
    expect(check({ ...form, currency: 'GBP', amount: '50' }, options)).toEqual({
      ok: false,
      error: Contract.onrampTexts.unsupportedPaymentCurrency('GBP'),
    })
    expect(check({ ...form, amount: '50', network: 'eip155:31338' }, options)).toEqual({
      ok: false,
      error: Contract.onrampTexts.unsupportedPair('ETH', 'eip155:31338'),
    })
    for (const amount of ['', 'abc', '1.234', '-5', '0'])
      expect(check({ ...form, amount }, options), amount).toMatchObject({
        ok: false,
        error: 'Enter an amount',
      })
  })

  it('finds the fiat that buys at least a shortfall from a quote, fees included, never under the minimum', () => {
    // 100 USD: 1.5 % fee, 0.50 network fee, ETH at 3000 USD.
    const quote: Contract.OnrampQuoteAnswer = {
      coinbaseFee: { amount: '1.50', currency: 'USD' },
      networkFee: { amount: '0.50', currency: 'USD' },
      paymentSubtotal: { amount: '98.00', currency: 'USD' },
      paymentTotal: { amount: '100.00', currency: 'USD' },
      purchaseAmount: { amount: '0.032666', currency: 'ETH' },
      quoteId: 'q',
      provider: 'sandbox',
    }
    const fiat = Number(fiatFor(0.1, quote, '20.00'))
    // What that total buys at the same fees is at least the shortfall.
    const bought = (fiat * (1 - 0.015) - 0.5) / 3000
    expect(bought).toBeGreaterThanOrEqual(0.1)
    expect(fiat).toBeLessThan(310)
    expect(fiatFor(0.0001, quote, '20.00')).toBe('20.00')
  })
})
