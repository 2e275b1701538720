/**
 * Chains, balances and prices: `GET /v1/supported-chains`, `GET /v1/account/{address}/balance` and
 * `POST /v1/fungible/price`.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { Hono } from 'hono'
import { getAddress } from 'viem'
import type { Cache } from '../../Cache.ts'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, type FindProject, known } from '../../http/project.ts'
import { evmAddress, json, parse } from '../../http/validate.ts'
import * as Balances from './Balances.ts'
import type * as Prices from './Prices.ts'

/** Balances are cached for 30 s, so a burst of modal opens costs one RPC read per address and chain. */
export const balanceTtlMs = 30_000

export type BalancesOptions = {
  config: Config
  cache: Cache
  prices: Prices.PriceSource
  /** This route may name its project in its body, so it looks the project up itself. */
  findProject: FindProject
}

const priceBody = S.object({
  projectId: S.optional(S.string(64, 1)),
  currency: S.picklist(Contract.currencies),
  addresses: S.array(S.check(S.string(200), Caip.isAccountId, Caip.invalidAccountId), 100),
})

export function create(options: BalancesOptions): Hono<Env> {
  const { config, cache } = options
  const app = new Hono<Env>()

  app.get('/v1/supported-chains', (c) => {
    known(c, Contract.commonQuery)
    return c.json({
      http: config.chains.map((chain) => chain.id),
      ws: config.chains.filter((chain) => chain.wsUrl).map((chain) => chain.id),
    } satisfies Contract.SupportedChainsAnswer)
  })

  // A chain's RPC that does not answer is a 502, answered by the app's error handler.
  app.get('/v1/account/:address/balance', async (c) => {
    const query = known(c, Contract.balanceQuery)
    const address = getAddress(parse(evmAddress, c.req.param('address')))
    const chain = config.chains.find((entry) => entry.id === query.chainId)
    if (!chain?.id.startsWith('eip155:')) throw new HttpError(400, messages.unsupportedChain(query.chainId))
    const currency = query.currency ?? 'usd'
    const key = `balance:${chain.id}:${address.toLowerCase()}:${currency}`
    const balances = await cache.remember(
      key,
      balanceTtlMs,
      () => Balances.read({ chain, address, currency, prices: options.prices }),
      query.forceUpdate === 'true',
    )
    return c.json({ balances } satisfies Contract.BalancesAnswer)
  })

  app.post('/v1/fungible/price', async (c) => {
    const body = parse(priceBody, await json(c))
    // Clients of this route send the project id in the body, not the query.
    if (!c.req.query('projectId') && body.projectId)
      c.set('project', await options.findProject(body.projectId))
    known(c, Contract.commonQuery, body.projectId)
    const assets = body.addresses.map((id) => {
      const { namespace, reference, address } = Caip.parseAccountId(id)
      return { chainId: `${namespace}:${reference}`, address: address.toLowerCase() }
    })
    const prices = await options.prices.prices(assets, body.currency)
    return c.json({
      fungibles: prices.map((price) => ({
        name: price.name,
        symbol: price.symbol,
        iconUrl: price.iconUrl ?? '',
        price: price.price,
        address: `${price.chainId}:${price.address}`,
      })),
    })
  })

  return app
}
