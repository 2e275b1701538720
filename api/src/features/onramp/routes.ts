/**
 * On-ramp (docs/behaviour.md §7): `GET /v1/onramp/options`, `POST /v1/onramp/quote`, `POST /v1/generators/onrampurl`,
 * `GET /v1/onramp/orders/{orderId}` and the providers' `POST /v1/onramp/webhooks/{provider}`. The API never
 * takes a payment: it lists and quotes what the providers sell, opens an order and signs the provider's
 * checkout URL for it, and records what the provider's signed webhook says became of it. docs/behaviour.md §8: when no
 * provider answers, the options are the fallback list and a quote is the mocked one, marked an estimate.
 */
import { randomBytes } from 'node:crypto'
import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import * as S from '@airlock/bridge-protocol/Shape'
import { type Context, Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { clientAddress } from '../../http/limits.ts'
import { type Env, type FindProject, known } from '../../http/project.ts'
import { json, jsonText, parse } from '../../http/validate.ts'
import { onrampMessages } from './messages.ts'
import * as Orders from './Orders.ts'
import {
  type OnrampProvider,
  type ProviderOptions,
  ProviderRefusal,
  ProviderUnavailable,
} from './Provider.ts'
import * as Providers from './Providers.ts'

export type OnrampOptions = {
  db: Pick<Database, 'query'>
  config: Pick<Config, 'onramp' | 'limits'>
  /** The POST routes may name their project in the body, so they look it up themselves. */
  findProject: FindProject
  /** The providers. @default those of `config.onramp`, each by its kind's adapter */
  providers?: readonly OnrampProvider[] | undefined
  now: () => number
}

const orderId = S.string(64, 16, /^[A-Za-z0-9_-]+$/)
const noStore = { 'Cache-Control': 'no-store' }

/** How often a polled pending order is asked of its provider. */
const reconcileEveryMs = 5_000

export function create(options: OnrampOptions): Hono<Env> {
  const { db, now } = options
  const providers = options.providers ?? Providers.fromConfig(options.config.onramp?.providers ?? [])
  const app = new Hono<Env>()

  /** The provider a request names, else the first; a 404 when none is configured. */
  const providerOf = (id: string | undefined): OnrampProvider => {
    const [first] = providers
    if (!first) throw new HttpError(404, onrampMessages.notConfigured)
    const found = id === undefined ? first : providers.find((entry) => entry.id === id)
    if (!found) throw new HttpError(400, onrampMessages.unknownProvider(id ?? ''))
    return found
  }

  /** Parses a POST body whose project may be in it rather than in the query. */
  const bodyOf = async <T extends { projectId?: string | undefined }>(c: Context<Env>, shape: S.Shape<T>) => {
    const body = parse(shape, await json(c))
    if (!c.req.query('projectId') && body.projectId)
      c.set('project', await options.findProject(body.projectId))
    const { project } = known(c, Contract.commonQuery, body.projectId)
    return { body, project }
  }

  app.get('/v1/onramp/options', async (c) => {
    known(c, Contract.onrampOptionsQuery)
    return c.json((await merged(providers)) satisfies Contract.OnrampOptionsAnswer)
  })

  app.post('/v1/onramp/quote', async (c) => {
    const { body } = await bodyOf(c, Contract.onrampQuoteBody)
    const provider = providerOf(body.provider)
    const paymentMethod = body.paymentMethod ?? 'card'
    const offered = await optionsOf(provider)
    checkLimits(offered ?? Contract.onrampFallbackOptions, body.paymentCurrency, paymentMethod, body.amount)
    const mocked = () => Contract.onrampMockedQuote(body.amount, body.paymentCurrency, provider.id)
    // Down, the provider's list is unknown: the visitor sees an estimate rather than a refusal.
    if (!offered) return c.json(mocked() satisfies Contract.OnrampQuoteAnswer)
    checkPair(offered, body.purchaseCurrency, body.network)
    try {
      const quote = await provider.quote({ ...body, paymentMethod })
      const quoteId = `${provider.id}_${randomBytes(12).toString('base64url')}`
      return c.json({ ...quote, quoteId, provider: provider.id } satisfies Contract.OnrampQuoteAnswer)
    } catch (error) {
      if (error instanceof ProviderRefusal) throw new HttpError(400, error.message)
      if (error instanceof ProviderUnavailable) return c.json(mocked() satisfies Contract.OnrampQuoteAnswer)
      throw error
    }
  })

  app.post('/v1/generators/onrampurl', async (c) => {
    const { body, project } = await bodyOf(c, Contract.onrampUrlBody)
    const provider = providerOf(body.provider)
    const [wallet] = body.destinationWallets
    if (!wallet) throw new HttpError(400, onrampMessages.noDestination)
    const network = body.defaultNetwork ?? wallet.blockchains?.[0]
    if (!network) throw new HttpError(400, onrampMessages.noNetwork)
    const asset = body.defaultAsset ?? wallet.assets?.[0]
    if (!asset) throw new HttpError(400, onrampMessages.noAsset)
    if (network.startsWith('eip155:') && !isEvmAddress(wallet.address, { strict: true }))
      throw new HttpError(400, messages.invalidEvmAddress)
    const offered = await optionsOf(provider)
    if (!offered) throw new HttpError(503, onrampMessages.providerUnavailable)
    checkPair(offered, asset, network)
    const fiatCurrency = body.fiatCurrency ?? 'USD'
    if (body.presetFiatAmount) checkLimits(offered, fiatCurrency, 'card', body.presetFiatAmount)
    else paymentCurrencyOf(offered, fiatCurrency)
    const order = await Orders.open(
      db,
      {
        projectId: project.id,
        provider: provider.id,
        partnerUserId: body.partnerUserId,
        address: wallet.address,
        network,
        asset: symbolOf(offered, asset),
        fiatCurrency,
        fiatAmount: body.presetFiatAmount,
        cryptoAmount: body.presetCryptoAmount,
        quoteId: body.quoteId,
      },
      now(),
    )
    const url = await checkout(provider, {
      orderId: order.id,
      address: order.address,
      network,
      asset: order.asset,
      fiatCurrency,
      fiatAmount: body.presetFiatAmount,
      cryptoAmount: body.presetCryptoAmount,
      partnerUserId: body.partnerUserId,
      clientIp: clientAddress(c, options.config.limits?.trustedProxies ?? 0),
    })
    return c.json({ url, orderId: order.id } satisfies Contract.OnrampUrlAnswer, 200, noStore)
  })

  /** When each pending order was last asked of its provider (this process's). */
  const asked = new Map<string, number>()
  /**
   * A pending order as its provider has it now, asked at most every {@link reconcileEveryMs}: a webhook that
   * never arrived (the API was down through every retry) still ends the order.
   */
  const reconcile = async (order: Orders.Order): Promise<Orders.Order> => {
    const provider = providers.find((entry) => entry.id === order.provider)
    if (!provider || now() - (asked.get(order.id) ?? 0) < reconcileEveryMs) return order
    asked.set(order.id, now())
    if (asked.size > 10_000) asked.delete(asked.keys().next().value ?? '')
    const event = await provider.lookup(order.id).catch((error: unknown) => {
      if (error instanceof ProviderUnavailable || error instanceof ProviderRefusal) return undefined
      throw error
    })
    if (
      !event ||
      event.orderId !== order.id ||
      Orders.holderOf(event.address) !== Orders.holderOf(order.address)
    )
      return order
    if (!(await Orders.apply(db, provider.id, event, now()))) return order
    return (await Orders.find(db, order.id)) ?? order
  }

  app.get('/v1/onramp/orders/:orderId', async (c) => {
    const { project } = known(c, Contract.onrampOrderQuery)
    const id = parse(orderId, c.req.param('orderId'))
    const found = await Orders.find(db, id)
    // Another project's order is answered as no order: its id tells nothing across projects.
    if (!found || found.projectId !== project.id) throw new HttpError(404, onrampMessages.orderNotFound)
    const order = found.status === 'pending' ? await reconcile(found) : found
    return c.json(Orders.answerOf(order) satisfies Contract.OnrampOrder, 200, noStore)
  })

  app.post('/v1/onramp/webhooks/:provider', async (c) => {
    const provider = providers.find((entry) => entry.id === c.req.param('provider'))
    if (!provider) throw new HttpError(404, onrampMessages.unknownProvider(c.req.param('provider')))
    const event = provider.webhook(c.req.raw.headers, await jsonText(c), now())
    if (event === 'invalid') throw new HttpError(401, onrampMessages.invalidSignature)
    if (event === 'stale') throw new HttpError(401, onrampMessages.staleSignature)
    if (!event) throw new HttpError(400, onrampMessages.invalidEvent)
    const order = await Orders.find(db, event.orderId)
    if (!order || order.provider !== provider.id) throw new HttpError(404, onrampMessages.orderNotFound)
    if (Orders.holderOf(event.address) !== Orders.holderOf(order.address))
      throw new HttpError(400, onrampMessages.walletMismatch)
    // A retried or replayed event finds the order no longer pending: accepted, nothing changes.
    const changed = await Orders.apply(db, provider.id, event, now())
    return c.json({ received: true, changed })
  })

  return app
}

/** The provider's checkout URL; its refusal is the client's 400, its absence a 503. */
async function checkout(
  provider: OnrampProvider,
  request: Parameters<OnrampProvider['checkoutUrl']>[0],
): Promise<string> {
  try {
    return await provider.checkoutUrl(request)
  } catch (error) {
    if (error instanceof ProviderRefusal) throw new HttpError(400, error.message)
    if (error instanceof ProviderUnavailable) throw new HttpError(503, onrampMessages.providerUnavailable)
    throw error
  }
}

/** A provider's options, or `undefined` when it cannot be reached. */
async function optionsOf(provider: OnrampProvider): Promise<ProviderOptions | undefined> {
  try {
    return await provider.options()
  } catch (error) {
    if (error instanceof ProviderUnavailable || error instanceof ProviderRefusal) {
      console.warn(`[airlock-api] on-ramp ${provider.id}: ${error.message}`)
      return undefined
    }
    throw error
  }
}

/** Every provider's options together; docs/behaviour.md §8's fallback list when none answers. */
async function merged(providers: readonly OnrampProvider[]): Promise<Contract.OnrampOptionsAnswer> {
  const answers = await Promise.all(
    providers.map(async (provider) => [provider, await optionsOf(provider)] as const),
  )
  const answered = answers.flatMap(([provider, offered]) => (offered ? [[provider, offered] as const] : []))
  if (answered.length === 0) return Contract.onrampFallbackOptions
  const payment = new Map<string, Contract.OnrampPaymentCurrency>()
  const purchase = new Map<string, Contract.OnrampPurchaseCurrency>()
  for (const [, offered] of answered) {
    for (const currency of offered.paymentCurrencies)
      if (!payment.has(currency.id)) payment.set(currency.id, currency)
    for (const currency of offered.purchaseCurrencies) {
      const known = purchase.get(currency.id)
      if (!known) purchase.set(currency.id, { ...currency, networks: [...currency.networks] })
      else
        for (const network of currency.networks)
          if (!known.networks.some((entry) => entry.chainId === network.chainId)) known.networks.push(network)
    }
  }
  return {
    paymentCurrencies: [...payment.values()],
    purchaseCurrencies: [...purchase.values()],
    providers: answered.map(([provider]) => ({ id: provider.id, name: provider.name })),
  }
}

function paymentCurrencyOf(offered: ProviderOptions, currency: string): Contract.OnrampPaymentCurrency {
  const found = offered.paymentCurrencies.find((entry) => entry.id === currency)
  if (!found) throw new HttpError(400, Contract.onrampTexts.unsupportedPaymentCurrency(currency))
  return found
}

/** Refuses an amount outside the payment method's limits in `currency`, with limit texts in the style of docs/behaviour.md §8. */
function checkLimits(
  offered: ProviderOptions,
  currency: string,
  method: Contract.OnrampPaymentMethod,
  amount: string,
): void {
  const limit = paymentCurrencyOf(offered, currency).limits.find((entry) => entry.id === method)
  if (!limit) throw new HttpError(400, Contract.onrampTexts.unsupportedPaymentCurrency(currency))
  if (Number(amount) < Number(limit.min))
    throw new HttpError(400, Contract.onrampTexts.minimum(limit.min, currency))
  if (Number(amount) > Number(limit.max))
    throw new HttpError(400, Contract.onrampTexts.maximum(limit.max, currency))
}

/** Refuses an asset the provider does not sell on `network`. */
function checkPair(offered: ProviderOptions, asset: string, network: string): void {
  const currency = offered.purchaseCurrencies.find((entry) => entry.id.toLowerCase() === asset.toLowerCase())
  if (!currency?.networks.some((entry) => entry.chainId === network))
    throw new HttpError(400, Contract.onrampTexts.unsupportedPair(asset, network))
}

/** The asset's symbol as the provider writes it (`tUSD` for `TUSD`). */
function symbolOf(offered: ProviderOptions, asset: string): string {
  return (
    offered.purchaseCurrencies.find((entry) => entry.id.toLowerCase() === asset.toLowerCase())?.symbol ??
    asset
  )
}
