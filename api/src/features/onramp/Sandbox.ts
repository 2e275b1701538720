/**
 * The adapter of the dev stack's sandbox provider (`devnet/src/onramp/Protocol.ts`), which speaks MoonPay's
 * shapes: currencies and quotes with the publishable key, checkout URLs signed with the secret key (base64
 * HMAC-SHA256 of `?` and the query), webhooks under `Moonpay-Signature-V2`. A MoonPay adapter differs in
 * paths (`/v3/…`) and little else.
 */
import { createHmac } from 'node:crypto'
import * as S from '@airlock/bridge-protocol/Shape'
import type * as Contract from '../../contract/index.ts'
import type { OnrampProvider, OrderEvent, ProviderQuote } from './Provider.ts'
import { ProviderRefusal, ProviderUnavailable } from './Provider.ts'
import type { ProviderConfig } from './ProviderConfig.ts'
import * as Signature from './Signature.ts'

/** How long the API waits for the provider before it falls back. */
const timeoutMs = 5_000

const signatureHeader = 'Moonpay-Signature-V2'

const decimal = S.string(40, 1, /^\d+(\.\d+)?$/)
const limit = S.object({ min: S.number(0), max: S.number(0) })
const currencies = S.object({
  crypto: S.array(
    S.object({
      code: S.string(20, 1),
      name: S.string(100, 1),
      symbol: S.string(20, 1),
      network: S.string(80, 1),
      networkName: S.string(100, 1),
      contractAddress: S.nullable(S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)),
    }),
    500,
  ),
  fiat: S.array(S.object({ code: S.string(3, 3), limits: S.object({ card: limit, bank: limit }) }), 100),
})
const buyQuote = S.object({
  baseCurrencyCode: S.string(3, 3),
  totalAmount: decimal,
  baseCurrencyAmount: decimal,
  feeAmount: decimal,
  networkFeeAmount: decimal,
  quoteCurrencyCode: S.string(20, 1),
  quoteCurrencyAmount: decimal,
})
const transaction = S.object({
  id: S.string(100, 1),
  externalTransactionId: S.string(100, 1),
  status: S.picklist(['pending', 'completed', 'failed']),
  walletAddress: S.string(100, 1),
  currencyCode: S.string(20, 1),
  baseCurrencyCode: S.string(3, 3),
  baseCurrencyAmount: decimal,
  quoteCurrencyAmount: decimal,
  cryptoTransactionId: S.nullable(S.string(100, 1)),
  failureReason: S.nullable(S.string(500, 1)),
})
const event = S.object({
  type: S.picklist(['transaction_created', 'transaction_completed', 'transaction_failed']),
  data: transaction,
})

const fiatAmount = (amount: string, currency: string): Contract.OnrampAmount => ({
  amount,
  currency: currency.toUpperCase(),
})

function orderEventOf(data: S.Infer<typeof transaction>): OrderEvent {
  return {
    orderId: data.externalTransactionId,
    status: data.status,
    providerTransactionId: data.id,
    address: data.walletAddress,
    txHash: data.cryptoTransactionId ?? undefined,
    failureReason: data.failureReason ?? undefined,
    purchaseAmount: { amount: data.quoteCurrencyAmount, currency: data.currencyCode.toUpperCase() },
    paymentTotal: fiatAmount(data.baseCurrencyAmount, data.baseCurrencyCode),
  }
}

/** @example const provider = Sandbox.create(config.onramp.providers[0]) */
export function create(config: ProviderConfig): OnrampProvider {
  /** `secret`: a read of purchases, authorised by the secret key (it goes only to the provider's API). */
  const get = async <T>(
    path: string,
    shape: S.Shape<T>,
    query: Record<string, string> = {},
    secret = false,
  ): Promise<T> => {
    const url = new URL(path, config.apiUrl)
    url.search = new URLSearchParams({ apiKey: config.publishableKey, ...query }).toString()
    let response: Response
    try {
      const headers: Record<string, string> = secret ? { Authorization: `Api-Key ${config.secretKey}` } : {}
      response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) })
    } catch (error) {
      throw new ProviderUnavailable(`${config.id} cannot be reached`, { cause: error })
    }
    const body: unknown = await response.json().catch(() => undefined)
    if (response.status >= 500 || response.status === 429)
      throw new ProviderUnavailable(`${config.id} answered ${response.status}`)
    if (!response.ok) {
      const message = S.parse(S.object({ message: S.string(500, 1) }), body)
      throw new ProviderRefusal(message.ok ? message.value.message : `${config.id} refused the request`)
    }
    const parsed = S.parse(shape, body)
    if (!parsed.ok) throw new ProviderUnavailable(`${config.id} answered an unknown shape: ${parsed.message}`)
    return parsed.value
  }

  return {
    id: config.id,
    name: config.name,
    async options() {
      const answer = await get('/v1/currencies', currencies)
      const purchase = new Map<string, Contract.OnrampPurchaseCurrency>()
      for (const entry of answer.crypto) {
        const found = purchase.get(entry.symbol) ?? {
          id: entry.symbol,
          symbol: entry.symbol,
          name: entry.name,
          networks: [],
        }
        found.networks.push({
          chainId: entry.network,
          name: entry.networkName,
          contractAddress: entry.contractAddress,
        })
        purchase.set(entry.symbol, found)
      }
      return {
        purchaseCurrencies: [...purchase.values()],
        paymentCurrencies: answer.fiat.map((fiat) => ({
          id: fiat.code.toUpperCase(),
          limits: (['card', 'bank'] as const).map((id) => ({
            id,
            min: fiat.limits[id].min.toFixed(2),
            max: fiat.limits[id].max.toFixed(2),
          })),
        })),
      }
    },
    async quote(request): Promise<ProviderQuote> {
      const answer = await get(
        `/v1/currencies/${request.purchaseCurrency.toLowerCase()}/buy_quote`,
        buyQuote,
        {
          network: request.network,
          baseCurrencyCode: request.paymentCurrency.toLowerCase(),
          baseCurrencyAmount: request.amount,
          paymentMethod: request.paymentMethod,
        },
      )
      const fiat = (amount: string) => fiatAmount(amount, answer.baseCurrencyCode)
      return {
        coinbaseFee: fiat(answer.feeAmount),
        networkFee: fiat(answer.networkFeeAmount),
        paymentSubtotal: fiat(answer.baseCurrencyAmount),
        paymentTotal: fiat(answer.totalAmount),
        purchaseAmount: { amount: answer.quoteCurrencyAmount, currency: request.purchaseCurrency },
      }
    },
    checkoutUrl(request) {
      const query = new URLSearchParams({
        apiKey: config.publishableKey,
        currencyCode: request.asset.toLowerCase(),
        network: request.network,
        walletAddress: request.address,
        baseCurrencyCode: request.fiatCurrency.toLowerCase(),
        ...(request.fiatAmount ? { baseCurrencyAmount: request.fiatAmount } : {}),
        ...(request.cryptoAmount ? { quoteCurrencyAmount: request.cryptoAmount } : {}),
        externalTransactionId: request.orderId,
        externalCustomerId: request.partnerUserId,
      })
      const signature = createHmac('sha256', config.secretKey).update(`?${query}`).digest('base64')
      query.set('signature', signature)
      return `${new URL('/buy', config.widgetUrl)}?${query}`
    },
    webhook(headers, body, nowMs) {
      const verdict = Signature.verify(headers.get(signatureHeader), body, config.webhookSecret, nowMs)
      if (verdict !== 'ok') return verdict
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        return undefined
      }
      const parsed = S.parse(event, json)
      return parsed.ok ? orderEventOf(parsed.value.data) : undefined
    },
    async lookup(orderId) {
      try {
        return orderEventOf(
          await get(`/v1/transactions/ext/${encodeURIComponent(orderId)}`, transaction, {}, true),
        )
      } catch (error) {
        // The provider has no purchase for the order yet: the visitor has not paid.
        if (error instanceof ProviderRefusal) return undefined
        throw error
      }
    },
  }
}
