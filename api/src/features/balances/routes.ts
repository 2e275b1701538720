/**
 * Chains, balances and prices: `GET /v1/supported-chains`, `GET /v1/account/{address}/balance` and
 * `POST /v1/fungible/price`.
 */
import { Caip } from '@airlock/bridge-protocol'
import { isEvmAddress, isSolanaAddress } from '@airlock/bridge-protocol/Address'
import { bech32Start } from '@airlock/bridge-protocol/BitcoinNetworks'
import * as S from '@airlock/bridge-protocol/Shape'
import * as Accounts from '@airlock/bridge-protocol/siwx/Accounts'
import { Hono } from 'hono'
import { getAddress } from 'viem'
import type { Cache } from '../../Cache.ts'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { HttpError, messages } from '../../http/errors.ts'
import { type Env, type FindProject, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Gate from '../../internal/gate.ts'
import { RpcBusyError } from '../../internal/rpc.ts'
import * as Balances from './Balances.ts'
import type * as Prices from './Prices.ts'

/** Balances are cached for 30 s, so a burst of modal opens costs one RPC read per address and chain. */
export const balanceTtlMs = 30_000

/**
 * Balance reads one process sends a chain at once, and how many more may wait, how long. A flood of many
 * addresses then costs the chain at most `limit` reads at a time, and what cannot be read within `waitMs` is
 * answered 503 with Retry-After at once, well before a client's time-out (identical reads share one: `Cache`).
 */
const chainReads: Gate.GateOptions = { limit: 32, waiting: 256, waitMs: 2_000 }

export type BalancesOptions = {
  config: Config
  cache: Cache
  prices: Prices.PriceSource
  /** This route may name its project in its body, so it looks the project up itself. */
  findProject: FindProject
  /** Balances of the Bitcoin-family chains (their Esplora indexes). */
  bitcoin?: Balances.BitcoinBalances | undefined
  /** @default chainReads */
  reads?: Gate.GateOptions | undefined
}

const priceBody = S.object({
  projectId: S.optional(S.string(64, 1)),
  currency: S.picklist(Contract.currencies),
  addresses: S.array(S.check(S.string(200), Caip.isAccountId, Caip.invalidAccountId), 100),
})

export function create(options: BalancesOptions): Hono<Env> {
  const { config, cache } = options
  const app = new Hono<Env>()
  const gates = new Map(config.chains.map((chain) => [chain.id, Gate.create(options.reads ?? chainReads)]))
  const read = (chain: Config['chains'][number], address: string, currency: Prices.Currency) =>
    (gates.get(chain.id) as Gate.Gate)
      .run(() =>
        Balances.read({ chain, address, currency, prices: options.prices, bitcoin: options.bitcoin }),
      )
      .catch((error: unknown) => {
        throw error instanceof Gate.GateFullError ? new RpcBusyError(chain.id) : error
      })

  app.get('/v1/supported-chains', (c) => {
    known(c, Contract.commonQuery)
    return c.json({
      http: config.chains.map((chain) => chain.id),
      ws: config.chains.filter((chain) => chain.wsUrl).map((chain) => chain.id),
      // Picked field by field: nothing else of a chain's configuration (its RPC URLs) reaches a browser.
      chains: config.chains.map(
        ({ id, name, nativeCurrency: { name: currency, symbol, decimals }, testnet }) => ({
          id,
          name,
          nativeCurrency: { name: currency, symbol, decimals },
          ...(testnet === undefined ? {} : { testnet }),
        }),
      ),
    } satisfies Contract.SupportedChainsAnswer)
  })

  // A chain's RPC that does not answer is a 502, answered by the app's error handler.
  app.get('/v1/account/:address/balance', async (c) => {
    const query = known(c, Contract.balanceQuery)
    const chain = config.chains.find((entry) => entry.id === query.chainId)
    if (!chain) throw new HttpError(400, messages.unsupportedChain(query.chainId))
    const address = addressOf(chain, c.req.param('address'))
    const currency = query.currency ?? 'usd'
    // EVM addresses are caseless; Solana's and Bitcoin's base58 are not (bech32 comes lowercase from addressOf).
    const key = `balance:${chain.id}:${chain.id.startsWith('eip155:') ? address.toLowerCase() : address}:${currency}`
    const balances = await cache.remember(
      key,
      balanceTtlMs,
      () => read(chain, address, currency),
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

/** The address in the path, valid for the chain's family (a 400 naming the family otherwise), normalized. */
function addressOf(chain: Config['chains'][number], raw: string | undefined): string {
  if (chain.id.startsWith('eip155:')) {
    // Any text that is not one (too long, another family's) is named as what it is not.
    if (!isEvmAddress(raw, { strict: true })) throw new HttpError(400, messages.invalidEvmAddress)
    return getAddress(raw)
  }
  if (chain.id.startsWith('solana:')) {
    if (!isSolanaAddress(raw)) throw new HttpError(400, messages.invalidSolanaAddress)
    return raw
  }
  const problem = Accounts.addressProblem('bip122', chain.id.slice('bip122:'.length), raw ?? '')
  if (problem !== undefined) throw new HttpError(400, `${messages.invalidBitcoinAddress}: ${problem}`)
  // bech32 is caseless and indexed in lower case; Base58Check is not.
  return bech32Start.test(raw ?? '') ? (raw ?? '').toLowerCase() : (raw ?? '')
}
