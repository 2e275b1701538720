/**
 * MoonPay, as its API reference documents it: what it sells (`GET /v3/currencies`: crypto currencies, each a
 * code per network such as `eth`, `eth_base`, `usdc_sol`, with `metadata.chainId` and `networkCode`, and
 * fiat currencies; each payment method's limits in each from `GET /v3/currencies/{code}/limits`), quotes (`GET /v3/currencies/{code}/buy_quote`, fees included), the
 * widget URL signed with the secret key (base64 HMAC-SHA256 of the query string, `?` included, appended as
 * `signature`), transactions by our order id (`GET /v1/transactions/ext/{externalTransactionId}`, with
 * `Authorization: Api-Key <secret key>`), and webhooks under `Moonpay-Signature-V2`.
 */
import { createHmac } from 'node:crypto'
import * as S from '@airlock/bridge-protocol/Shape'
import type * as Contract from '../../contract/index.ts'
import * as Networks from './Networks.ts'
import type { OnrampProvider, OrderEvent, ProviderOptions } from './Provider.ts'
import { ProviderRefusal } from './Provider.ts'
import type { ProviderConfig } from './ProviderConfig.ts'
import { call, decimal, eventOf } from './ProviderHttp.ts'
import * as Signature from './Signature.ts'

const signatureHeader = 'Moonpay-Signature-V2'

const code = S.string(40, 1, /^[a-z0-9_]+$/)
const currency = S.object({
  type: S.picklist(['crypto', 'fiat']),
  code,
  name: S.string(100, 1),
  minBuyAmount: S.optional(S.nullable(S.number(0))),
  maxBuyAmount: S.optional(S.nullable(S.number(0))),
  metadata: S.optional(
    S.nullable(
      S.object({
        contractAddress: S.optional(S.nullable(S.string(100))),
        chainId: S.optional(S.nullable(S.union(S.string(20), S.number(0)))),
        networkCode: S.optional(S.nullable(S.string(80))),
      }),
    ),
  ),
})
const buyQuote = S.object({
  baseCurrencyAmount: decimal,
  quoteCurrencyAmount: decimal,
  feeAmount: decimal,
  extraFeeAmount: S.optional(decimal),
  networkFeeAmount: decimal,
  totalAmount: decimal,
})
const limits = S.object({
  baseCurrency: S.object({ code, minBuyAmount: S.number(0), maxBuyAmount: S.number(0) }),
})
const transaction = S.object({
  id: S.string(100, 1),
  externalTransactionId: S.nullable(S.string(100)),
  status: S.picklist(['waitingPayment', 'pending', 'waitingAuthorization', 'failed', 'completed']),
  walletAddress: S.string(100, 1),
  baseCurrencyAmount: decimal,
  quoteCurrencyAmount: S.nullable(decimal),
  cryptoTransactionId: S.nullable(S.string(100)),
  failureReason: S.nullable(S.string(500)),
  currency: S.optional(S.object({ code })),
  baseCurrency: S.optional(S.object({ code })),
})
const event = S.object({
  type: S.picklist(['transaction_created', 'transaction_updated', 'transaction_failed']),
  data: transaction,
})

/** MoonPay's payment method for each of the contract's: a bank transfer is ACH in dollars, SEPA otherwise. */
const methodOf = (method: Contract.OnrampPaymentMethod, fiat: string) =>
  method === 'card' ? 'credit_debit_card' : fiat === 'USD' ? 'ach_bank_transfer' : 'sepa_bank_transfer'

/** A crypto currency's symbol: its code before the network suffix (`usdc_sol` is USDC), as MoonPay writes them. */
const symbolOf = (value: string) => (value.split('_')[0] ?? value).toUpperCase()

/** Of a transaction, what the API records. */
function orderEventOf(data: S.Infer<typeof transaction>): OrderEvent {
  const status = data.status === 'completed' ? 'completed' : data.status === 'failed' ? 'failed' : 'pending'
  return {
    orderId: data.externalTransactionId ?? '',
    status,
    providerTransactionId: data.id,
    address: data.walletAddress,
    txHash: data.cryptoTransactionId ?? undefined,
    failureReason: data.failureReason ?? undefined,
    purchaseAmount:
      data.quoteCurrencyAmount && data.currency
        ? { amount: data.quoteCurrencyAmount, currency: symbolOf(data.currency.code) }
        : undefined,
    paymentTotal: data.baseCurrency
      ? { amount: data.baseCurrencyAmount, currency: data.baseCurrency.code.toUpperCase() }
      : undefined,
  }
}

/**
 * The widget URL of `query`, signed as MoonPay's docs sign it: the signature is over the query string as
 * sent, `?` included, so a changed or reordered parameter breaks it.
 * @example sign('https://buy.moonpay.com', new URLSearchParams({ apiKey, currencyCode: 'eth', walletAddress }), secretKey)
 */
export function signedUrl(widgetUrl: string, query: URLSearchParams, secretKey: string): string {
  const signature = createHmac('sha256', secretKey).update(`?${query}`).digest('base64')
  return `${new URL('/', widgetUrl)}?${query}&signature=${encodeURIComponent(signature)}`
}

/** @example const provider = Moonpay.create(config.onramp.providers[0]) */
export function create(config: ProviderConfig): OnrampProvider {
  const url = (path: string, query: Record<string, string> = {}) => {
    const target = new URL(path, config.apiUrl)
    target.search = new URLSearchParams({ apiKey: config.publishableKey, ...query }).toString()
    return target
  }
  /** What it sells, with MoonPay's code of each (symbol, network), asked afresh: a down provider shows at once. */
  const catalog = async () => {
    const currencies = await call(config.id, url('/v3/currencies'), S.array(currency, 2000))
    const codes = new Map<string, string>()
    const purchase = new Map<string, Contract.OnrampPurchaseCurrency>()
    for (const entry of currencies) {
      if (entry.type !== 'crypto') continue
      const network = Networks.caip2Of(
        entry.metadata?.networkCode ?? '',
        entry.metadata?.chainId,
        config.networks ?? {},
      )
      if (!network) continue
      const symbol = symbolOf(entry.code)
      codes.set(`${symbol}@${network}`, entry.code)
      const found = purchase.get(symbol) ?? { id: symbol, symbol, name: entry.name, networks: [] }
      found.networks.push({
        chainId: network,
        name: entry.metadata?.networkCode ?? network,
        contractAddress: entry.metadata?.contractAddress || null,
      })
      purchase.set(symbol, found)
    }
    // Each payment method's limits in each fiat currency, from MoonPay's limits of one crypto currency.
    const [any] = codes.values()
    const fiats = currencies.filter((entry) => entry.type === 'fiat')
    const paymentCurrencies = await Promise.all(
      fiats.map(async (fiat) => ({
        id: fiat.code.toUpperCase(),
        limits: await Promise.all(
          (['card', 'bank'] as const).map(async (id) => {
            const found = any
              ? await call(
                  config.id,
                  url(`/v3/currencies/${any}/limits`, {
                    baseCurrencyCode: fiat.code,
                    paymentMethod: methodOf(id, fiat.code.toUpperCase()),
                    areFeesIncluded: 'true',
                  }),
                  limits,
                )
              : undefined
            const range = found?.baseCurrency ?? fiat
            return {
              id,
              min: (range.minBuyAmount ?? 0).toFixed(2),
              max: (range.maxBuyAmount ?? 0).toFixed(2),
            }
          }),
        ),
      })),
    )
    const options: ProviderOptions = { purchaseCurrencies: [...purchase.values()], paymentCurrencies }
    return { options, codes }
  }
  const codeOf = async (asset: string, network: string) => {
    const found = (await catalog()).codes.get(`${asset.toUpperCase()}@${network}`)
    if (!found) throw new ProviderRefusal(`${config.name} does not sell ${asset} on ${network}`)
    return found
  }

  return {
    id: config.id,
    name: config.name,
    options: async () => (await catalog()).options,
    async quote(request) {
      const answer = await call(
        config.id,
        url(`/v3/currencies/${await codeOf(request.purchaseCurrency, request.network)}/buy_quote`, {
          baseCurrencyCode: request.paymentCurrency.toLowerCase(),
          baseCurrencyAmount: request.amount,
          // The amount is what the visitor pays, fees included.
          areFeesIncluded: 'true',
          paymentMethod: methodOf(request.paymentMethod, request.paymentCurrency),
        }),
        buyQuote,
      )
      // MoonPay writes fiat as JSON numbers (100, not 100.00): said in cents, as the contract's fiat is.
      const fiat = (amount: string) => ({
        amount: Number(amount).toFixed(2),
        currency: request.paymentCurrency,
      })
      const fee = (Number(answer.feeAmount) + Number(answer.extraFeeAmount ?? 0)).toFixed(2)
      return {
        coinbaseFee: fiat(fee),
        networkFee: fiat(answer.networkFeeAmount),
        paymentSubtotal: fiat(answer.baseCurrencyAmount),
        paymentTotal: fiat(answer.totalAmount),
        purchaseAmount: { amount: answer.quoteCurrencyAmount, currency: request.purchaseCurrency },
      }
    },
    async checkoutUrl(request) {
      const query = new URLSearchParams({
        apiKey: config.publishableKey,
        currencyCode: await codeOf(request.asset, request.network),
        walletAddress: request.address,
        baseCurrencyCode: request.fiatCurrency.toLowerCase(),
        ...(request.fiatAmount ? { baseCurrencyAmount: request.fiatAmount } : {}),
        ...(request.cryptoAmount ? { quoteCurrencyAmount: request.cryptoAmount } : {}),
        externalTransactionId: request.orderId,
        externalCustomerId: request.partnerUserId,
      })
      return signedUrl(config.widgetUrl, query, config.secretKey)
    },
    webhook(headers, body, nowMs) {
      const verdict = Signature.verify(headers.get(signatureHeader), body, config.webhookSecret, nowMs)
      if (verdict !== 'ok') return verdict
      const parsed = eventOf(body, event)
      return parsed && orderEventOf(parsed.data)
    },
    async lookup(orderId) {
      try {
        // MoonPay answers every transaction opened with that external id; the newest says where it is.
        const found = await call(
          config.id,
          new URL(`/v1/transactions/ext/${encodeURIComponent(orderId)}`, config.apiUrl),
          S.array(transaction, 100),
          { headers: { Authorization: `Api-Key ${config.secretKey}` } },
        )
        const newest = found.at(-1)
        return newest && orderEventOf(newest)
      } catch (error) {
        // No transaction for the order yet: the visitor has not paid.
        if (error instanceof ProviderRefusal) return undefined
        throw error
      }
    },
  }
}
