/**
 * What the sandbox sells and at what price: each chain's native currency and its test tokens, priced from
 * the devnet's price table, with a {@link Protocol.feePercent} fee and a flat network fee taken from the
 * total the visitor pays.
 */
import * as Protocol from './Protocol.ts'
import type { SandboxChain } from './Treasury.ts'

/** USD prices by symbol (the devnet's `demoPrices`). */
export type Prices = Readonly<Record<string, number>>

export type Catalog = {
  currencies: Protocol.Currencies
  /** The currency `code` on `network`, if sold. */
  find(code: string, network: string): Protocol.CryptoCurrency | undefined
  /** Quotes `total` (fees included) of `fiat` for `crypto`; a refusal's text when it cannot. */
  quote(
    crypto: Protocol.CryptoCurrency,
    fiat: string,
    total: number,
    method?: string,
  ): Protocol.BuyQuote | string
}

const native = { code: 'eth', name: 'Ether', symbol: 'ETH', decimals: 18 } as const

export function create(chains: readonly SandboxChain[], prices: Prices): Catalog {
  const crypto: Protocol.CryptoCurrency[] = chains.flatMap((chain) => [
    { ...native, network: chain.id, networkName: chain.name, contractAddress: null },
    ...chain.tokens
      .filter((token) => prices[token.symbol] !== undefined)
      .map((token) => ({
        code: token.symbol.toLowerCase(),
        name: token.name,
        symbol: token.symbol,
        network: chain.id,
        networkName: chain.name,
        contractAddress: token.address,
        decimals: token.decimals,
      })),
  ])
  const currencies: Protocol.Currencies = {
    crypto,
    fiat: Protocol.fiatCurrencies.map((code) => ({ code, limits: Protocol.limits })),
  }
  const find = (code: string, network: string) =>
    crypto.find((entry) => entry.code === code.toLowerCase() && entry.network === network)
  return {
    currencies,
    find,
    quote(currency, fiat, total, method = 'card') {
      const limit = Protocol.limits[method as keyof typeof Protocol.limits]
      if (!limit) return `Unknown payment method: ${method}`
      if (!(Protocol.fiatCurrencies as readonly string[]).includes(fiat))
        return `Unsupported currency: ${fiat}`
      if (!Number.isFinite(total) || total < limit.min) return `The minimum is ${limit.min} ${fiat}`
      if (total > limit.max) return `The maximum is ${limit.max} ${fiat}`
      const usd = prices[currency.symbol] ?? 0
      const price = fiat === 'eur' ? usd / Protocol.usdPerEur : usd
      const fee = Number(Protocol.cents((total * Protocol.feePercent) / 100))
      const subtotal = Number(Protocol.cents(total - fee - Protocol.networkFee))
      const digits = Math.min(currency.decimals, 8)
      const amount = Math.floor((subtotal / price) * 10 ** digits) / 10 ** digits
      return {
        baseCurrencyCode: fiat,
        totalAmount: Protocol.cents(total),
        baseCurrencyAmount: Protocol.cents(subtotal),
        feeAmount: Protocol.cents(fee),
        networkFeeAmount: Protocol.cents(Protocol.networkFee),
        quoteCurrencyCode: currency.code,
        quoteCurrencyAmount: amount.toFixed(digits),
        quoteCurrencyPrice: price,
      }
    },
  }
}
