/**
 * The sandbox on-ramp's protocol, in one place: MoonPay's shapes, so the API's adapter is the adapter of a
 * real provider and a test of it is a test of that protocol.
 *
 * Credentials: a publishable key (`pk_…`, in widget URLs and public reads as `?apiKey`), a secret key
 * (`sk_…`, signs widget URLs and authorises `Authorization: Api-Key <sk>` reads) and a webhook secret.
 *
 * - `GET /buy?apiKey&currencyCode&network&walletAddress&baseCurrencyCode&baseCurrencyAmount
 *   [&quoteCurrencyAmount]&externalTransactionId&signature`: the hosted checkout. `signature` is
 *   {@link signQuery}: base64 HMAC-SHA256 under the secret key of `?` and the query without `signature`,
 *   exactly as sent. Without a valid one: 403.
 * - `GET /v1/currencies?apiKey`: {@link Currencies}. `GET /v1/currencies/{code}/buy_quote?apiKey&network
 *   &baseCurrencyCode&baseCurrencyAmount[&paymentMethod]`: {@link BuyQuote}; the amount is the total the
 *   visitor pays, fees included.
 * - `GET /v1/transactions/{id}` and `GET /v1/transactions/ext/{externalTransactionId}` (secret key):
 *   {@link Transaction}.
 * - Webhooks: `POST` of {@link WebhookEvent} to the configured URL, header {@link signatureHeader}
 *   `t=<unix seconds>,s=<hex HMAC-SHA256(webhookSecret, t + '.' + body)>`; retried with backoff until a 2xx.
 * - `POST /__control` `{ down: boolean }`, from loopback only: a down provider answers 503 to everything else.
 */
import { createHmac } from 'node:crypto'

/** The sandbox's port on the dev stack. */
export const defaultPort = 8797

/** The header a webhook's signature travels in (MoonPay's name). */
export const signatureHeader = 'Moonpay-Signature-V2'

/** The provider fee, in percent of the total paid (SPEC §9: 1–2 %). */
export const feePercent = 1.5

/** The network fee the sandbox charges per purchase, in the payment currency. */
export const networkFee = 0.25

/** Dollars per euro, fixed: the sandbox prices in USD and converts. */
export const usdPerEur = 1.1

/** What each payment method allows, in either fiat currency (SPEC §3's figures). */
export const limits = {
  card: { min: 10, max: 7500 },
  bank: { min: 10, max: 25000 },
} as const

export const fiatCurrencies = ['usd', 'eur'] as const

/** The test cards (Stripe's numbers, as most sandboxes use). */
export const testCards = {
  succeeds: '4242424242424242',
  authenticates: '4000000000003220',
  declined: '4000000000000002',
} as const

/** The texts of the checkout's outcomes, which tests and the e2e journey look for. */
export const checkoutTexts = {
  success: 'Payment complete',
  failure: 'Payment failed',
  declined: 'Your card was declined.',
  authenticationFailed: 'Authentication failed.',
  authenticate: 'Confirm this payment with your bank',
  badSignature: 'This checkout link is not valid: its signature does not match.',
  unknownCard: 'Use one of the sandbox test cards.',
} as const

type TransactionStatus = 'pending' | 'completed' | 'failed'

export type Transaction = {
  id: string
  externalTransactionId: string
  status: TransactionStatus
  walletAddress: string
  /** Lower-case symbol, as MoonPay writes currency codes (`eth`, `tusd`). */
  currencyCode: string
  /** CAIP-2. */
  network: string
  baseCurrencyCode: string
  /** What the visitor paid, fees included, as a decimal string. */
  baseCurrencyAmount: string
  quoteCurrencyAmount: string
  feeAmount: string
  networkFeeAmount: string
  /** The delivery's transaction hash, once completed. */
  cryptoTransactionId: string | null
  failureReason: string | null
  createdAt: string
  updatedAt: string
}

export type WebhookEvent = {
  type: 'transaction_created' | 'transaction_completed' | 'transaction_failed'
  /** One per event: a retried delivery carries the same id. */
  id: string
  data: Transaction
}

export type CryptoCurrency = {
  code: string
  name: string
  symbol: string
  /** CAIP-2. */
  network: string
  networkName: string
  /** `null` for the network's own currency. */
  contractAddress: string | null
  decimals: number
}

export type Currencies = {
  crypto: CryptoCurrency[]
  fiat: { code: string; limits: typeof limits }[]
}

export type BuyQuote = {
  baseCurrencyCode: string
  /** The total, fees included. */
  totalAmount: string
  /** What buys the crypto: the total less both fees. */
  baseCurrencyAmount: string
  feeAmount: string
  networkFeeAmount: string
  quoteCurrencyCode: string
  quoteCurrencyAmount: string
  /** The crypto's price in the fiat currency. */
  quoteCurrencyPrice: number
}

/**
 * The signature of a widget URL: base64 HMAC-SHA256 of `?` and its query (without `signature`), as sent.
 * @example
 * url.searchParams.set('signature', signQuery(secretKey, url.search))
 */
export function signQuery(secretKey: string, search: string): string {
  const query = search.startsWith('?') ? search : `?${search}`
  return createHmac('sha256', secretKey).update(query).digest('base64')
}

/** A webhook's signature header for `body` at `t` (unix seconds). */
export function signWebhook(webhookSecret: string, body: string, t: number): string {
  return `t=${t},s=${createHmac('sha256', webhookSecret).update(`${t}.${body}`).digest('hex')}`
}

/** Fiat amounts round to cents, down for what the provider gives and up for what it takes. */
export function cents(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2)
}
