/**
 * The sandbox's MoonPay: the widget URL verified as MoonPay verifies it (the signature over the query as
 * sent, `?` included, under the secret key), its `/v3/currencies` and buy quotes read with the publishable
 * key, its transactions with the secret key, and webhooks signed under `Moonpay-Signature-V2`.
 */
import { timingSafeEqual } from 'node:crypto'
import type { Catalog } from './Catalog.ts'
import * as Protocol from './Protocol.ts'

export type Credentials = { publishableKey: string; secretKey: string }

export function create(catalog: Catalog, credentials: Credentials) {
  /** A widget query whose signature and key hold, with what it buys; else why it is refused. */
  const verify = (
    query: string,
  ): { query: string; params: URLSearchParams; currency: Protocol.CryptoCurrency } | string => {
    const raw = query.replace(/^\?/, '')
    const at = raw.lastIndexOf('&signature=')
    const signed = at === -1 ? raw : raw.slice(0, at)
    const params = new URLSearchParams(raw)
    const given = Buffer.from(params.get('signature') ?? '', 'base64')
    const expected = Buffer.from(Protocol.signQuery(credentials.secretKey, signed), 'base64')
    if (at === -1 || given.length !== expected.length || !timingSafeEqual(given, expected))
      return Protocol.checkoutTexts.badSignature
    // Signed with our key but for another's publishable key: as good as unsigned.
    if (params.get('apiKey') !== credentials.publishableKey) return Protocol.checkoutTexts.badSignature
    const currency = catalog.byCode(params.get('currencyCode') ?? '')
    if (!currency) return 'This currency is not sold.'
    return { query: `?${raw}`, params, currency }
  }

  /** The answer to a `GET` of MoonPay's API. */
  const api = (
    url: URL,
    authorization: string | undefined,
    transactions: ReadonlyMap<string, Protocol.Transaction>,
  ): [number, unknown] => {
    const authorised = authorization === `Api-Key ${credentials.secretKey}`
    const byId = /^\/v1\/transactions\/(ext\/)?([A-Za-z0-9_-]{1,100})$/.exec(url.pathname)
    if (byId) {
      if (!authorised) return [401, { message: 'The secret key is required' }]
      const mine = [...transactions.values()].filter((entry) => entry.kind === 'moonpay')
      if (byId[1]) {
        const found = mine.filter((entry) => entry.externalTransactionId === byId[2])
        return found.length
          ? [200, found.map(Protocol.moonpayOf)]
          : [404, { message: 'Transaction not found' }]
      }
      const found = mine.find((entry) => entry.id === byId[2])
      return found ? [200, Protocol.moonpayOf(found)] : [404, { message: 'Transaction not found' }]
    }
    if (url.searchParams.get('apiKey') !== credentials.publishableKey && !authorised)
      return [401, { message: 'Unknown apiKey' }]
    if (url.pathname === '/v3/currencies') return [200, catalog.moonpay]
    const limit = /^\/v3\/currencies\/([a-z0-9_]{1,40})\/limits$/.exec(url.pathname)
    if (limit) return limits(limit[1] ?? '', url.searchParams)
    const quote = /^\/v3\/currencies\/([a-z0-9_]{1,40})\/buy_quote$/.exec(url.pathname)
    if (!quote) return [404, { message: 'Not found' }]
    const currency = catalog.byCode(quote[1] ?? '')
    if (!currency) return [400, { message: 'This currency is not sold' }]
    const method = Protocol.paymentMethods[url.searchParams.get('paymentMethod') ?? 'credit_debit_card']
    const answer = catalog.quote(
      currency,
      url.searchParams.get('baseCurrencyCode') ?? 'usd',
      Number(url.searchParams.get('baseCurrencyAmount') ?? 'NaN'),
      method ?? 'unknown',
    )
    if (typeof answer === 'string') return [400, { message: answer }]
    // MoonPay writes amounts as JSON numbers.
    return [
      200,
      {
        baseCurrencyCode: answer.baseCurrencyCode,
        baseCurrencyAmount: Number(answer.baseCurrencyAmount),
        quoteCurrencyCode: answer.quoteCurrencyCode,
        quoteCurrencyAmount: Number(answer.quoteCurrencyAmount),
        quoteCurrencyPrice: answer.quoteCurrencyPrice,
        feeAmount: Number(answer.feeAmount),
        extraFeeAmount: 0,
        networkFeeAmount: Number(answer.networkFeeAmount),
        totalAmount: Number(answer.totalAmount),
        paymentMethod: url.searchParams.get('paymentMethod') ?? 'credit_debit_card',
      },
    ]
  }

  /** MoonPay's limits of buying `code` with a fiat currency and a payment method. */
  const limits = (code: string, query: URLSearchParams): [number, unknown] => {
    const currency = catalog.byCode(code)
    const fiat = (query.get('baseCurrencyCode') ?? 'usd').toLowerCase()
    const method = Protocol.paymentMethods[query.get('paymentMethod') ?? 'credit_debit_card']
    if (!currency || !method || !(Protocol.fiatCurrencies as readonly string[]).includes(fiat))
      return [400, { message: 'Unsupported currency or payment method' }]
    const range = Protocol.limits[method]
    return [
      200,
      {
        paymentMethod: query.get('paymentMethod'),
        areFeesIncluded: true,
        baseCurrency: { code: fiat, minBuyAmount: range.min, maxBuyAmount: range.max },
        quoteCurrency: { code: currency.code, minBuyAmount: null, maxBuyAmount: null },
      },
    ]
  }

  return { verify, api }
}

/** A webhook of `transaction`'s state, signed under `Moonpay-Signature-V2`. */
export function webhookOf(transaction: Protocol.Transaction, webhookSecret: string, nowS: number) {
  const type = transaction.status === 'failed' ? 'transaction_failed' : 'transaction_updated'
  const body = JSON.stringify({ type, data: Protocol.moonpayOf(transaction) } satisfies Protocol.WebhookEvent)
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      [Protocol.signatureHeader]: Protocol.signWebhook(webhookSecret, body, nowS),
    },
  }
}
