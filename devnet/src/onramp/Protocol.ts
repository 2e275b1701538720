/**
 * The sandbox on-ramp's protocols, in one place. It speaks MoonPay's and Coinbase Onramp's, each as its
 * provider documents it, so the API's adapters are the adapters of the real providers and a test of them is
 * a test of those protocols.
 *
 * MoonPay: a publishable key (`?apiKey`, in widget URLs and public reads), a secret key (signs widget URLs,
 * authorises `Authorization: Api-Key <sk>` reads) and a webhook key.
 * - `GET /?apiKey&currencyCode&walletAddress&baseCurrencyCode&baseCurrencyAmount[&quoteCurrencyAmount]
 *   &externalTransactionId&externalCustomerId&signature`: the hosted widget. `signature` is {@link signQuery}:
 *   base64 HMAC-SHA256 under the secret key of `?` and the query before `&signature`, exactly as sent.
 *   Without a valid one: 403.
 * - `GET /v3/currencies?apiKey`: {@link MoonpayCurrency}[]. `GET /v3/currencies/{code}/buy_quote?apiKey
 *   &baseCurrencyCode&baseCurrencyAmount&areFeesIncluded=true[&paymentMethod]`: {@link BuyQuote}.
 * - `GET /v1/transactions/{id}` and `GET /v1/transactions/ext/{externalTransactionId}` (secret key, the
 *   latter an array): {@link MoonpayTransaction}.
 * - Webhooks: `POST` of `{ type, data }` with header {@link signatureHeader} `t=<unix seconds>,s=<hex
 *   HMAC-SHA256(webhook key, t + '.' + body)>`; retried with backoff until a 2xx.
 *
 * Coinbase Onramp (`Coinbase.ts`): every API call carries a CDP JWT (ES256 or EdDSA, checked against the
 * key's public half); `POST /onramp/v1/token` issues single-use session tokens (5 minutes) for the checkout
 * `GET /buy/select-asset?sessionToken…`; `GET /onramp/v1/buy/options`, `POST /onramp/v1/buy/quote`,
 * `GET /onramp/v1/buy/user/{partnerUserRef}/transactions`; webhooks signed under `X-Hook0-Signature`.
 *
 * `POST /__control` `{ down: boolean }`, from loopback only: a down provider answers 503 to everything else.
 */
import { createHmac } from 'node:crypto'

/** The sandbox's port on the dev stack. */
export const defaultPort = 8797

/** The header a webhook's signature travels in (MoonPay's name). */
export const signatureHeader = 'Moonpay-Signature-V2'

/** The provider fee, in percent of the total paid (docs/behaviour.md §9: 1–2 %). */
export const feePercent = 1.5

/** The network fee the sandbox charges per purchase, in the payment currency. */
export const networkFee = 0.25

/** Dollars per euro, fixed: the sandbox prices in USD and converts. */
export const usdPerEur = 1.1

/** What each payment method allows, in either fiat currency (docs/behaviour.md §3's figures). */
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
  badSession: 'This checkout link is not valid: its session token is unknown, used or expired.',
  unknownCard: 'Use one of the sandbox test cards.',
} as const

type TransactionStatus = 'pending' | 'completed' | 'failed'

/** Which provider's protocol a purchase came through. */
export type Kind = 'moonpay' | 'coinbase'

/** A purchase as the sandbox keeps it; each protocol answers it in its own shape. */
export type Transaction = {
  id: string
  kind: Kind
  /** MoonPay's `externalTransactionId`, Coinbase's `partnerUserRef`: the API's order id. */
  externalTransactionId: string
  status: TransactionStatus
  walletAddress: string
  /** MoonPay's code of the currency (`eth`, `tusd_airlock_devnet_b`). */
  currencyCode: string
  symbol: string
  /** CAIP-2. */
  network: string
  /** The provider's name of the network (`airlock-devnet-a`). */
  networkCode: string
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

/** A transaction as MoonPay's API and webhooks write it. */
export type MoonpayTransaction = Omit<Transaction, 'kind' | 'symbol' | 'network' | 'networkCode'> & {
  currency: { code: string }
  baseCurrency: { code: string }
}

export type WebhookEvent = {
  type: 'transaction_created' | 'transaction_updated' | 'transaction_failed'
  data: MoonpayTransaction
}

/** MoonPay's shape of a transaction. */
export function moonpayOf(transaction: Transaction): MoonpayTransaction {
  const { kind: _kind, symbol: _symbol, network: _network, networkCode: _code, ...rest } = transaction
  return {
    ...rest,
    currency: { code: transaction.currencyCode },
    baseCurrency: { code: transaction.baseCurrencyCode },
  }
}

/** A currency the sandbox sells on one network. */
export type CryptoCurrency = {
  /** MoonPay's code. */
  code: string
  name: string
  symbol: string
  /** CAIP-2. */
  network: string
  /** The providers' name of the network: MoonPay's `networkCode`, Coinbase's network `name`. */
  networkCode: string
  networkName: string
  /** The EVM chain id, `null` elsewhere. */
  chainId: string | null
  /** `null` for the network's own currency. */
  contractAddress: string | null
  decimals: number
}

/** An entry of MoonPay's `GET /v3/currencies`. */
export type MoonpayCurrency = {
  type: 'crypto' | 'fiat'
  code: string
  name: string
  precision: number
  minBuyAmount: number | null
  maxBuyAmount: number | null
  metadata: { contractAddress: string | null; chainId: string | null; networkCode: string } | null
}

/** MoonPay's and Coinbase's names of the two payment methods. */
export const paymentMethods: Readonly<Record<string, keyof typeof limits>> = {
  credit_debit_card: 'card',
  ach_bank_transfer: 'bank',
  sepa_bank_transfer: 'bank',
  CARD: 'card',
  ACH_BANK_ACCOUNT: 'bank',
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
