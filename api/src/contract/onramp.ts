/**
 * On-ramp (docs/behaviour.md §7): buying crypto with a card or a bank transfer through a provider's hosted checkout. The
 * API lists what can be bought (`GET /v1/onramp/options`), quotes a purchase (`POST /v1/onramp/quote`),
 * opens an order and signs the provider's checkout URL (`POST /v1/generators/onrampurl`), and follows the
 * order until the provider's signed webhook says the tokens were delivered (`GET /v1/onramp/orders/{id}`).
 * Shapes modelled on Coinbase's onramp APIs, so a client written against those reads these.
 *
 * A network is named by its CAIP-2 chain id everywhere (`eip155:1`); a currency by its symbol (`ETH`,
 * `USD`). Fiat and crypto amounts are decimal strings in whole units (`'100.00'`, `'0.0312'`), never floats.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { chainId } from './balances.ts'
import { projectId, sdkField } from './common.ts'

/** How a visitor pays: the limits of each differ (docs/behaviour.md §3). */
export const onrampPaymentMethods = ['card', 'bank'] as const
export type OnrampPaymentMethod = (typeof onrampPaymentMethods)[number]

export const onrampOrderStatuses = ['pending', 'completed', 'failed'] as const
export type OnrampOrderStatus = (typeof onrampOrderStatuses)[number]

/**
 * The refusals a client may show as they are, each once: the limit texts (a client may check an amount
 * against the options' limits with the same words before it asks) and an unsupported pair.
 */
export const onrampTexts = {
  minimum: (min: string, currency: string) => `The minimum purchase is ${min} ${currency}`,
  maximum: (max: string, currency: string) => `The maximum purchase is ${max} ${currency}`,
  unsupportedPaymentCurrency: (currency: string) => `Payments in ${currency} are not accepted`,
  unsupportedPair: (asset: string, network: string) => `${asset} cannot be bought on ${network}`,
} as const

/** A provider's id as the API's configuration names it (`sandbox`, `moonpay`, `coinbase`). */
const providerId = S.string(40, 1, /^[a-z0-9-]+$/)
/** A positive decimal in whole units. */
const decimal = S.string(40, 1, /^\d{1,20}(\.\d{1,18})?$/)
/** A fiat currency's ISO 4217 code. */
const fiatCode = S.string(3, 3, /^[A-Z]{3}$/)
/** A crypto currency's symbol (`ETH`, `USDC`, `tUSD`). */
const symbol = S.string(20, 1, /^[A-Za-z0-9.]+$/)
/** A destination address: EVM or Solana (docs/behaviour.md §9: on-ramp serves eip155 and solana). */
const walletAddress = S.string(64, 32, /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/)
/** An order's id: random, unguessable, URL-safe. Knowing it is what lets a client read the order. */
const orderId = S.string(64, 16, /^[A-Za-z0-9_-]+$/)

/** `{ amount, currency }`: an amount in whole units of `currency`. */
export const onrampAmount = S.object({ amount: decimal, currency: S.string(20, 1) })
export type OnrampAmount = S.Infer<typeof onrampAmount>

/** `GET /v1/onramp/options`. */
export const onrampOptionsQuery = S.object({ projectId, st: sdkField, sv: sdkField })
export type OnrampOptionsQuery = S.Infer<typeof onrampOptionsQuery>

/** What one payment method allows in one fiat currency, inclusive. */
export const onrampLimit = S.object({ id: S.picklist(onrampPaymentMethods), min: decimal, max: decimal })
export type OnrampLimit = S.Infer<typeof onrampLimit>

export const onrampPaymentCurrency = S.object({ id: fiatCode, limits: S.array(onrampLimit, 10) })
export type OnrampPaymentCurrency = S.Infer<typeof onrampPaymentCurrency>

/**
 * A network a currency can be bought on; `contractAddress` (an ERC-20, or a Solana mint) is `null` for the
 * network's own currency.
 */
export const onrampNetwork = S.object({
  chainId,
  name: S.string(100, 1),
  contractAddress: S.nullable(walletAddress),
})
export type OnrampNetwork = S.Infer<typeof onrampNetwork>

export const onrampPurchaseCurrency = S.object({
  id: symbol,
  symbol,
  name: S.string(100, 1),
  networks: S.array(onrampNetwork, 50),
})
export type OnrampPurchaseCurrency = S.Infer<typeof onrampPurchaseCurrency>

export const onrampProvider = S.object({ id: providerId, name: S.string(100, 1) })
export type OnrampProvider = S.Infer<typeof onrampProvider>

/**
 * What can be bought with what. `fallback: true` when no provider answered: the list is then docs/behaviour.md §8's
 * ({@link onrampFallbackOptions}) and nothing can be bought until a provider is back.
 */
export const onrampOptionsAnswer = S.object({
  paymentCurrencies: S.array(onrampPaymentCurrency, 100),
  purchaseCurrencies: S.array(onrampPurchaseCurrency, 500),
  providers: S.array(onrampProvider, 20),
  fallback: S.optional(S.literal(true)),
})
export type OnrampOptionsAnswer = S.Infer<typeof onrampOptionsAnswer>

/** `POST /v1/onramp/quote`: what `amount` of `paymentCurrency` buys of `purchaseCurrency` on `network`. */
export const onrampQuoteBody = S.object({
  /** Optional: the project may be named in the query instead. */
  projectId: S.optional(projectId),
  purchaseCurrency: symbol,
  paymentCurrency: fiatCode,
  /** The fiat the visitor pays, fees included. */
  amount: decimal,
  network: chainId,
  /** @default 'card' */
  paymentMethod: S.optional(S.picklist(onrampPaymentMethods)),
  /** @default the first provider configured */
  provider: S.optional(providerId),
})
export type OnrampQuoteBody = S.Infer<typeof onrampQuoteBody>

/**
 * docs/behaviour.md §3's quote. `coinbaseFee` is the provider's fee (1–2 %, the name is Coinbase's), `paymentSubtotal`
 * what buys the crypto, `paymentTotal` subtotal plus both fees. `estimate: true` when the provider did not
 * answer and this is docs/behaviour.md §8's mocked quote: a client shows it as an estimate and cannot buy with it.
 */
export const onrampQuoteAnswer = S.object({
  coinbaseFee: onrampAmount,
  networkFee: onrampAmount,
  paymentSubtotal: onrampAmount,
  paymentTotal: onrampAmount,
  purchaseAmount: onrampAmount,
  quoteId: S.string(100, 1),
  provider: providerId,
  estimate: S.optional(S.literal(true)),
})
export type OnrampQuoteAnswer = S.Infer<typeof onrampQuoteAnswer>

/** One wallet the purchase may go to, with the networks (CAIP-2) or assets (symbols) it takes. */
export const onrampDestinationWallet = S.object({
  address: walletAddress,
  blockchains: S.optional(S.array(chainId, 20)),
  assets: S.optional(S.array(symbol, 50)),
})
export type OnrampDestinationWallet = S.Infer<typeof onrampDestinationWallet>

/**
 * `POST /v1/generators/onrampurl`: opens an order for the first destination wallet and answers the
 * provider's signed checkout URL. The network is `defaultNetwork`, else the wallet's first blockchain; the
 * asset `defaultAsset`, else the wallet's first asset.
 */
export const onrampUrlBody = S.object({
  projectId: S.optional(projectId),
  destinationWallets: S.array(onrampDestinationWallet, 5),
  defaultNetwork: S.optional(chainId),
  defaultAsset: S.optional(symbol),
  /** The host app's id for the visitor, passed to the provider (at most 50 characters, as Coinbase's). */
  partnerUserId: S.string(50, 1),
  defaultExperience: S.picklist(['buy', 'send']),
  presetCryptoAmount: S.optional(decimal),
  presetFiatAmount: S.optional(decimal),
  /** @default 'USD' */
  fiatCurrency: S.optional(fiatCode),
  provider: S.optional(providerId),
  /** The quote the visitor saw, kept on the order. */
  quoteId: S.optional(S.string(100, 1)),
})
export type OnrampUrlBody = S.Infer<typeof onrampUrlBody>

/** The URL to open in a popup (never inside the modal's iframe: providers refuse to be framed). */
export const onrampUrlAnswer = S.object({ url: S.string(4096, 1), orderId })
export type OnrampUrlAnswer = S.Infer<typeof onrampUrlAnswer>

/** `GET /v1/onramp/orders/{orderId}`: the order, for a client that polls it until it is no longer pending. */
export const onrampOrderQuery = S.object({ projectId, st: sdkField, sv: sdkField })
export type OnrampOrderQuery = S.Infer<typeof onrampOrderQuery>

export const onrampOrder = S.object({
  orderId,
  status: S.picklist(onrampOrderStatuses),
  provider: providerId,
  address: walletAddress,
  /** CAIP-2. */
  network: chainId,
  /** The purchased currency's symbol. */
  asset: symbol,
  /** What was asked for when the order opened; the provider's final figures once completed. */
  purchaseAmount: S.optional(onrampAmount),
  paymentTotal: S.optional(onrampAmount),
  /** The delivery's transaction, once completed. */
  txHash: S.optional(S.string(100, 1)),
  failureReason: S.optional(S.string(500, 1)),
  /** ISO 8601. */
  updatedAt: S.string(64, 1),
})
export type OnrampOrder = S.Infer<typeof onrampOrder>

/**
 * docs/behaviour.md §3/§8's fallback options, answered when no provider can be reached: USDC and ETH on Ethereum and
 * Polygon, USD and EUR, card 10.00–7500.00, bank 10.00–25000.00.
 */
export const onrampFallbackOptions: OnrampOptionsAnswer = {
  paymentCurrencies: ['USD', 'EUR'].map((id) => ({
    id,
    limits: [
      { id: 'card' as const, min: '10.00', max: '7500.00' },
      { id: 'bank' as const, min: '10.00', max: '25000.00' },
    ],
  })),
  purchaseCurrencies: [
    {
      id: 'USDC',
      symbol: 'USDC',
      name: 'USD Coin',
      networks: [
        {
          chainId: 'eip155:1',
          name: 'Ethereum',
          contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        },
        {
          chainId: 'eip155:137',
          name: 'Polygon',
          contractAddress: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        },
      ],
    },
    {
      id: 'ETH',
      symbol: 'ETH',
      name: 'Ethereum',
      networks: [
        { chainId: 'eip155:1', name: 'Ethereum', contractAddress: null },
        {
          chainId: 'eip155:137',
          name: 'Polygon',
          contractAddress: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
        },
      ],
    },
  ],
  providers: [],
  fallback: true,
}

/**
 * docs/behaviour.md §8's mocked quote, answered when the provider fails to quote: every figure is the amount asked for,
 * in the payment currency, so nothing in it may be read as a price. Marked `estimate: true`.
 */
export function onrampMockedQuote(amount: string, currency: string, provider: string): OnrampQuoteAnswer {
  const figure = { amount, currency }
  return {
    coinbaseFee: figure,
    networkFee: figure,
    paymentSubtotal: figure,
    paymentTotal: figure,
    purchaseAmount: figure,
    quoteId: 'mocked-quote-id',
    provider,
    estimate: true,
  }
}
