/**
 * Coinbase Onramp, as CDP's Onramp API reference documents it: what it sells (`GET /onramp/v1/buy/options`,
 * payment currencies with limits per method, purchase currencies with their networks' chain ids and
 * contracts), quotes (`POST /onramp/v1/buy/quote`), a single-use session token per checkout
 * (`POST /onramp/v1/token` with the wallet's address and networks, the asset and the visitor's IP: the
 * addresses never travel in the URL), transactions by our order id passed as `partnerUserRef`
 * (`GET /onramp/v1/buy/user/{partnerUserRef}/transactions`), and webhooks under `X-Hook0-Signature`. Every
 * API call carries a JWT signed with the project's CDP Secret API Key (`CdpJwt.ts`).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import type * as Contract from '../../contract/index.ts'
import { signJwt } from './CdpJwt.ts'
import * as Networks from './Networks.ts'
import type { OnrampProvider, OrderEvent, ProviderOptions } from './Provider.ts'
import { ProviderRefusal } from './Provider.ts'
import type { ProviderConfig } from './ProviderConfig.ts'
import { call, decimal, eventOf } from './ProviderHttp.ts'
import * as Signature from './Signature.ts'

const amount = S.object({ value: decimal, currency: S.string(20, 1) })
const limit = S.object({ id: S.string(40, 1), min: decimal, max: decimal })
const buyOptions = S.object({
  paymentCurrencies: S.array(S.object({ id: S.string(3, 3), limits: S.array(limit, 20) }), 200),
  purchaseCurrencies: S.array(
    S.object({
      id: S.string(100, 1),
      name: S.string(100, 1),
      symbol: S.string(20, 1),
      networks: S.array(
        S.object({
          name: S.string(80, 1),
          displayName: S.string(100, 1),
          chainId: S.optional(S.string(20)),
          contractAddress: S.optional(S.string(100)),
        }),
        100,
      ),
    }),
    2000,
  ),
})
const buyQuote = S.object({
  coinbaseFee: amount,
  networkFee: amount,
  paymentSubtotal: amount,
  paymentTotal: amount,
  purchaseAmount: amount,
  quoteId: S.string(100, 1),
})
const statuses = {
  ONRAMP_TRANSACTION_STATUS_CREATED: 'pending',
  ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: 'pending',
  ONRAMP_TRANSACTION_STATUS_SUCCESS: 'completed',
  ONRAMP_TRANSACTION_STATUS_FAILED: 'failed',
} as const satisfies Record<string, Contract.OnrampOrderStatus>
const transactionFields = {
  transactionId: S.string(100, 1),
  status: S.picklist(Object.keys(statuses) as (keyof typeof statuses)[]),
  partnerUserRef: S.string(100, 1),
  walletAddress: S.string(100, 1),
  purchaseAmount: amount,
  paymentTotal: amount,
  txHash: S.optional(S.string(100)),
  failureReason: S.optional(S.string(500)),
}
const transaction = S.object(transactionFields)
const transactions = S.object({ transactions: S.array(transaction, 100) })
const event = S.object({
  eventType: S.picklist([
    'onramp.transaction.created',
    'onramp.transaction.updated',
    'onramp.transaction.success',
    'onramp.transaction.failed',
  ]),
  ...transactionFields,
})

/** Coinbase's payment method for each of the contract's. */
const methods = { card: 'CARD', bank: 'ACH_BANK_ACCOUNT' } as const
/** Coinbase's way of saying that nothing failed. */
const noFailure = 'FAILURE_REASON_UNSPECIFIED'

function orderEventOf(data: S.Infer<typeof transaction>): OrderEvent {
  return {
    orderId: data.partnerUserRef,
    status: statuses[data.status],
    providerTransactionId: data.transactionId,
    address: data.walletAddress,
    txHash: data.txHash || undefined,
    failureReason: data.failureReason && data.failureReason !== noFailure ? data.failureReason : undefined,
    purchaseAmount: { amount: data.purchaseAmount.value, currency: data.purchaseAmount.currency },
    paymentTotal: { amount: data.paymentTotal.value, currency: data.paymentTotal.currency },
  }
}

/** @example const provider = Coinbase.create(config.onramp.providers[0]) */
export function create(config: ProviderConfig): OnrampProvider {
  const country = config.country ?? 'US'
  const api = <T>(method: 'GET' | 'POST', path: string, shape: S.Shape<T>, body?: unknown) => {
    const url = new URL(path, config.apiUrl)
    const jwt = signJwt({
      keyId: config.publishableKey,
      secret: config.secretKey,
      method,
      url,
      // The provider's clock, not a test's: the token is checked against real time.
      nowS: Math.floor(Date.now() / 1000),
    })
    return call(config.id, url, shape, { method, body, headers: { Authorization: `Bearer ${jwt}` } })
  }
  /** What it sells, with Coinbase's network name of each CAIP-2 id, asked afresh: a down provider shows at once. */
  const catalog = async () => {
    const answer = await api('GET', `/onramp/v1/buy/options?country=${country}`, buyOptions)
    const names = new Map<string, string>()
    const options: ProviderOptions = {
      purchaseCurrencies: answer.purchaseCurrencies.flatMap((entry) => {
        const networks = entry.networks.flatMap((network) => {
          const chainId = Networks.caip2Of(network.name, network.chainId, config.networks ?? {})
          if (!chainId) return []
          names.set(chainId, network.name)
          return [{ chainId, name: network.displayName, contractAddress: network.contractAddress || null }]
        })
        return networks.length ? [{ id: entry.symbol, symbol: entry.symbol, name: entry.name, networks }] : []
      }),
      paymentCurrencies: answer.paymentCurrencies.map((fiat) => ({
        id: fiat.id,
        limits: (['card', 'bank'] as const).flatMap((id) => {
          const found = fiat.limits.find((entry) => entry.id === methods[id])
          return found ? [{ id, min: Number(found.min).toFixed(2), max: Number(found.max).toFixed(2) }] : []
        }),
      })),
    }
    return { options, names }
  }
  const nameOf = async (network: string) => {
    const name = (await catalog()).names.get(network)
    if (!name) throw new ProviderRefusal(`${config.name} does not sell on ${network}`)
    return name
  }

  return {
    id: config.id,
    name: config.name,
    options: async () => (await catalog()).options,
    async quote(request) {
      const answer = await api('POST', '/onramp/v1/buy/quote', buyQuote, {
        purchaseCurrency: request.purchaseCurrency,
        purchaseNetwork: await nameOf(request.network),
        paymentAmount: request.amount,
        paymentCurrency: request.paymentCurrency,
        paymentMethod: methods[request.paymentMethod],
        country,
      })
      const of = (value: S.Infer<typeof amount>) => ({ amount: value.value, currency: value.currency })
      return {
        coinbaseFee: of(answer.coinbaseFee),
        networkFee: of(answer.networkFee),
        paymentSubtotal: of(answer.paymentSubtotal),
        paymentTotal: of(answer.paymentTotal),
        purchaseAmount: of(answer.purchaseAmount),
      }
    },
    async checkoutUrl(request) {
      const network = await nameOf(request.network)
      const { token } = await api('POST', '/onramp/v1/token', S.object({ token: S.string(2000, 1) }), {
        addresses: [{ address: request.address, blockchains: [network] }],
        assets: [request.asset],
        clientIp: request.clientIp,
      })
      const query = new URLSearchParams({
        sessionToken: token,
        defaultAsset: request.asset,
        defaultNetwork: network,
        fiatCurrency: request.fiatCurrency,
        ...(request.fiatAmount ? { presetFiatAmount: request.fiatAmount } : {}),
        ...(request.cryptoAmount ? { presetCryptoAmount: request.cryptoAmount } : {}),
        // The order's own id, so its transactions are found by it (partnerUserRef takes any string).
        partnerUserRef: request.orderId,
        defaultExperience: 'buy',
      })
      return `${new URL('/buy/select-asset', config.widgetUrl)}?${query}`
    },
    webhook(headers, body, nowMs) {
      const verdict = Signature.verifyHook0(headers, body, config.webhookSecret, nowMs)
      if (verdict !== 'ok') return verdict
      const parsed = eventOf(body, event)
      return parsed && orderEventOf(parsed)
    },
    async lookup(orderId) {
      const path = `/onramp/v1/buy/user/${encodeURIComponent(orderId)}/transactions?pageSize=1`
      try {
        const [newest] = (await api('GET', path, transactions)).transactions
        return newest && orderEventOf(newest)
      } catch (error) {
        if (error instanceof ProviderRefusal) return undefined
        throw error
      }
    },
  }
}
