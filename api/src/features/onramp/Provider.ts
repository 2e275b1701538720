/**
 * What the on-ramp routes need of a provider: what it sells, a quote, its signed checkout URL for an order,
 * and its webhooks read back into order events. One implementation per provider protocol, chosen by the
 * configuration's `kind` (`Providers.ts`); the routes call only this.
 *
 * MoonPay (`Moonpay.ts`) and Coinbase Onramp (`Coinbase.ts`) are built in; another provider is one more
 * implementation of {@link OnrampProvider}, its kind in `Providers.ts` and the configuration.
 */
import type * as Contract from '../../contract/index.ts'

export type ProviderOptions = Pick<Contract.OnrampOptionsAnswer, 'paymentCurrencies' | 'purchaseCurrencies'>

type QuoteRequest = {
  purchaseCurrency: string
  paymentCurrency: string
  /** The total the visitor pays, fees included, in whole units of `paymentCurrency`. */
  amount: string
  /** CAIP-2. */
  network: string
  paymentMethod: Contract.OnrampPaymentMethod
}

type ProviderQuote = Omit<Contract.OnrampQuoteAnswer, 'quoteId' | 'provider' | 'estimate'>

/** An order as the provider's checkout needs it. */
type CheckoutRequest = {
  orderId: string
  address: string
  network: string
  asset: string
  fiatCurrency: string
  fiatAmount?: string | undefined
  cryptoAmount?: string | undefined
  partnerUserId: string
  /** The visitor's IP address, which Coinbase binds its session token to. */
  clientIp: string
}

/** What a webhook says of an order. */
export type OrderEvent = {
  /** The order's id, as the checkout URL gave it to the provider. */
  orderId: string
  status: Contract.OnrampOrderStatus
  /** The provider's own id of the purchase. */
  providerTransactionId: string
  address: string
  txHash?: string | undefined
  failureReason?: string | undefined
  purchaseAmount?: Contract.OnrampAmount | undefined
  paymentTotal?: Contract.OnrampAmount | undefined
}

/** Why a webhook was not read: a signature that does not verify, or one older than the tolerance (a replay). */
type WebhookRefusal = 'invalid' | 'stale'

export type OnrampProvider = {
  id: string
  name: string
  /** What it sells; throws {@link ProviderUnavailable} when it cannot be reached or answers 5xx. */
  options(): Promise<ProviderOptions>
  /** Throws {@link ProviderUnavailable}, or {@link ProviderRefusal} with its reason for a 4xx. */
  quote(request: QuoteRequest): Promise<ProviderQuote>
  /**
   * The URL of its hosted checkout for the order: signed here (MoonPay), or carrying a session token asked
   * of the provider (Coinbase). Throws {@link ProviderUnavailable} or {@link ProviderRefusal} when it asks.
   */
  checkoutUrl(request: CheckoutRequest): Promise<string>
  /** Verifies a webhook (`headers` as received, `body` the raw text) and reads it; `nowMs` for staleness. */
  webhook(headers: Headers, body: string, nowMs: number): OrderEvent | WebhookRefusal | undefined
  /**
   * What the provider's own record says of the order (its transactions API), for an order whose webhook may
   * have been lost; `undefined` when it has none. Throws {@link ProviderUnavailable} when it cannot be asked.
   */
  lookup(orderId: string): Promise<OrderEvent | undefined>
}

/** The provider could not be reached, timed out or answered 5xx: the routes fall back (docs/behaviour.md §8). */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable'
}

/** The provider refused the request (4xx); its message is passed on. */
export class ProviderRefusal extends Error {
  override name = 'ProviderRefusal'
}
