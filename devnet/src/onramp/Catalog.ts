/**
 * What the sandbox sells and at what price: each chain's native currency and its test tokens, priced from
 * the devnet's price table, with a {@link Protocol.feePercent} fee and a flat network fee taken from the
 * total the visitor pays. Each currency is named as MoonPay names them (one code per currency and network:
 * `eth` on the first chain, `eth_<network>` on the others) and as Coinbase does (symbol and network name).
 */
import * as Protocol from './Protocol.ts'
import type { SandboxChain } from './Treasury.ts'

/** USD prices by symbol (the devnet's `demoPrices`). */
export type Prices = Readonly<Record<string, number>>

export type Catalog = {
  /** Everything it sells, on every chain. */
  crypto: readonly Protocol.CryptoCurrency[]
  /** MoonPay's `GET /v3/currencies`. */
  moonpay: Protocol.MoonpayCurrency[]
  /** The currency of MoonPay's `code`. */
  byCode(code: string): Protocol.CryptoCurrency | undefined
  /** The currency `symbol` on the network Coinbase names `network`. */
  bySymbol(symbol: string, network: string): Protocol.CryptoCurrency | undefined
  /** Quotes `total` (fees included) of `fiat` for `crypto`; a refusal's text when it cannot. */
  quote(
    crypto: Protocol.CryptoCurrency,
    fiat: string,
    total: number,
    method?: string,
  ): Protocol.BuyQuote | string
}

export function create(chains: readonly SandboxChain[], prices: Prices): Catalog {
  const crypto: Protocol.CryptoCurrency[] = chains.flatMap((chain, index) => {
    // MoonPay suffixes the code of a currency on any network but its first one (`eth_base`, `usdc_sol`).
    const codeOf = (symbol: string) =>
      index === 0 ? symbol.toLowerCase() : `${symbol.toLowerCase()}_${chain.network.replace(/-/g, '_')}`
    const of = (symbol: string, name: string, decimals: number, contractAddress: string | null) => ({
      code: codeOf(symbol),
      name,
      symbol,
      network: chain.id,
      networkCode: chain.network,
      networkName: chain.name,
      chainId: chain.id.startsWith('eip155:') ? chain.id.slice('eip155:'.length) : null,
      contractAddress,
      decimals,
    })
    return [
      of(chain.native.symbol, chain.native.name, chain.native.decimals, null),
      ...chain.tokens
        .filter((token) => prices[token.symbol] !== undefined)
        .map((token) => of(token.symbol, token.name, token.decimals, token.address)),
    ]
  })
  const moonpay: Protocol.MoonpayCurrency[] = [
    ...crypto.map((entry) => ({
      type: 'crypto' as const,
      code: entry.code,
      name: entry.name,
      precision: Math.min(entry.decimals, 8),
      minBuyAmount: null,
      maxBuyAmount: null,
      metadata: {
        contractAddress: entry.contractAddress,
        chainId: entry.chainId,
        networkCode: entry.networkCode,
      },
    })),
    ...Protocol.fiatCurrencies.map((code) => ({
      type: 'fiat' as const,
      code,
      name: code.toUpperCase(),
      precision: 2,
      minBuyAmount: Protocol.limits.card.min,
      maxBuyAmount: Protocol.limits.card.max,
      metadata: null,
    })),
  ]
  return {
    crypto,
    moonpay,
    byCode: (code) => crypto.find((entry) => entry.code === code.toLowerCase()),
    bySymbol: (symbol, network) =>
      crypto.find(
        (entry) => entry.symbol.toLowerCase() === symbol.toLowerCase() && entry.networkCode === network,
      ),
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
