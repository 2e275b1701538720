/**
 * The API's routes (SPEC §7). Every input is parsed once, here, with the bridge's shapes; every error is
 * JSON `{ message }` with its status. CORS answers the modal origin and the origins of the project named in
 * the query, nobody else.
 */
import { Caip } from '@airlock/bridge-protocol'
import { isEvmAddress } from '@airlock/bridge-protocol/Address'
import * as S from '@airlock/bridge-protocol/Shape'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { getAddress } from 'viem'
import * as Analytics from '../Analytics.ts'
import * as Balances from '../Balances.ts'
import type { Cache } from '../Cache.ts'
import type { Config } from '../Config.ts'
import type { Database } from '../Database.ts'
import type { IdentitySource } from '../Identity.ts'
import * as Prices from '../Prices.ts'
import * as Projects from '../Projects.ts'
import * as Registry from '../Registry.ts'
import * as Sessions from './Sessions.ts'

/** SPEC §9: balances are cached 30 s, identities 5 min. */
export const balanceTtlMs = 30_000
export const identityTtlMs = 300_000
/** How long a process may act on a project's old origins after an admin changed them. */
export const projectTtlMs = 5_000

/** Error texts clients may match on. */
export const messages = {
  projectNotConfigured: 'Project id not configured',
  invalidAppConfiguration: 'Invalid App Configuration',
  notFound: 'Not found',
  internal: 'Something went wrong',
  invalidJson: 'The body is not valid JSON',
  tooLarge: 'The body is too large',
  unsupportedChain: (id: string) => `Unsupported chain: ${id}`,
  rpcUnavailable: (id: string) => `The RPC of ${id} is unavailable`,
} as const

/** An error answered as `{ message }` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message)
  }
}

export type ApiOptions = {
  db: Database
  config: Config
  cache: Cache
  prices: Prices.PriceSource
  identity: IdentitySource
  /** @default Date.now */
  now?: (() => number) | undefined
}

export type Env = { Variables: { project: Projects.Project | undefined } }

const common = {
  projectId: S.string(64, 1),
  /** SDK type and version, as clients send them; accepted and otherwise unused. */
  st: S.optional(S.string(64)),
  sv: S.optional(S.string(64)),
}
export const commonQuery = S.object(common)
const flag = S.optional(S.picklist(['true', 'false']))
const integer = (min: number, max: number) =>
  S.check(
    S.string(6, 1, /^\d+$/),
    (value) => Number(value) >= min && Number(value) <= max,
    `expected ${min}..${max}`,
  )
const list = (item: RegExp, max: number) =>
  S.check(
    S.string(max * 80, 1),
    (value) => value.split(',').length <= max && value.split(',').every((part) => item.test(part)),
    `expected a comma-separated list of at most ${max}`,
  )
// Strict: a mixed-case address with a wrong EIP-55 checksum is a typo, not an address.
const evmAddress = S.check(
  S.string(42),
  (value) => isEvmAddress(value, { strict: true }),
  'Invalid EVM address',
)
const chainId = S.check(S.string(80), Caip.isChainId, Caip.invalidChainId)
const imageId = S.string(80, 1, /^[A-Za-z0-9_-]+$/)

const balanceQuery = S.object({
  ...common,
  currency: S.optional(S.picklist(Prices.currencies)),
  chainId,
  forceUpdate: flag,
})
const walletsQuery = S.object({
  ...common,
  page: S.optional(integer(1, 10_000)),
  entries: S.optional(integer(1, 100)),
  include: S.optional(list(/^[A-Za-z0-9_-]{1,80}$/, 500)),
  exclude: S.optional(list(/^[A-Za-z0-9_-]{1,80}$/, 500)),
  chains: S.optional(
    S.check(list(/^.+$/, 64), (value) => value.split(',').every(Caip.isChainId), Caip.invalidChainId),
  ),
  search: S.optional(S.string(100)),
  badge_type: S.optional(S.picklist(['none', 'certified'])),
})
const identityQuery = S.object({ ...common, sender: S.optional(evmAddress) })
const priceBody = S.object({
  projectId: S.optional(S.string(64, 1)),
  currency: S.picklist(Prices.currencies),
  addresses: S.array(S.check(S.string(200), Caip.isAccountId, Caip.invalidAccountId), 100),
})

/**
 * @example
 * const api = Api.create({ db, config, cache, prices, identity })
 * await api.request('/v1/supported-chains?projectId=demo')
 */
export function create(options: ApiOptions): Hono<Env> {
  const { db, config, cache } = options
  const findProject = Projects.memo(db, projectTtlMs, options.now)
  const app = new Hono<Env>()

  app.use(async (c, next) => {
    const id = c.req.query('projectId')
    c.set('project', id ? await findProject(id) : undefined)
    await next()
  })
  app.use(
    cors({
      origin: (origin, c: Context<Env>) => {
        const project = c.get('project')
        return origin === config.modalOrigin || (project && Projects.allows(project, origin)) ? origin : null
      },
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['Content-Type'],
      maxAge: 600,
    }),
  )
  app.use(
    bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new HttpError(413, messages.tooLarge)
      },
    }),
  )

  app.get('/health', (c) => c.json({ ok: true }))

  app.get('/v1/supported-chains', (c) => {
    known(c, commonQuery)
    return c.json({
      http: config.chains.map((chain) => chain.id),
      ws: config.chains.filter((chain) => chain.wsUrl).map((chain) => chain.id),
    })
  })

  app.get('/v1/account/:address/balance', async (c) => {
    const query = known(c, balanceQuery)
    const address = getAddress(parse(evmAddress, c.req.param('address')))
    const chain = config.chains.find((entry) => entry.id === query.chainId)
    if (!chain?.id.startsWith('eip155:')) throw new HttpError(400, messages.unsupportedChain(query.chainId))
    const currency = query.currency ?? 'usd'
    const key = `balance:${chain.id}:${address.toLowerCase()}:${currency}`
    try {
      const balances = await cache.remember(
        key,
        balanceTtlMs,
        () => Balances.read({ chain, address, currency, prices: options.prices }),
        query.forceUpdate === 'true',
      )
      return c.json({ balances })
    } catch (error) {
      if (error instanceof Balances.RpcError) throw new HttpError(502, messages.rpcUnavailable(chain.id))
      throw error
    }
  })

  app.post('/v1/fungible/price', async (c) => {
    const body = parse(priceBody, await json(c))
    // SPEC §7 puts the project id of this call in its body.
    if (!c.req.query('projectId') && body.projectId) c.set('project', await findProject(body.projectId))
    known(c, commonQuery, body.projectId)
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

  app.get('/v1/identity/:address', async (c) => {
    known(c, identityQuery)
    const address = parse(evmAddress, c.req.param('address')).toLowerCase()
    return c.json(
      await cache.remember(`identity:${address}`, identityTtlMs, () => options.identity.lookup(address)),
    )
  })

  app.get('/projects/v1/origins', (c) => {
    const { project } = known(c, commonQuery)
    return c.json({ allowedOrigins: project.origins })
  })

  app.get('/getWallets', async (c) => {
    const query = known(c, walletsQuery)
    const split = (value: string | undefined) => (value ? value.split(',') : undefined)
    return c.json(
      await Registry.wallets(db, {
        page: Number(query.page ?? 1),
        entries: Number(query.entries ?? 40),
        include: split(query.include),
        exclude: split(query.exclude),
        chains: split(query.chains),
        search: query.search?.trim() || undefined,
        badgeType: query.badge_type,
      }),
    )
  })

  const imageRoute = (path: string, kind: Registry.ImageKind) =>
    app.get(path, async (c) => {
      known(c, commonQuery)
      const image = await Registry.image(db, kind, parse(imageId, c.req.param('id')))
      if (!image) throw new HttpError(404, messages.notFound)
      const headers = {
        ETag: image.etag,
        // Image ids never change meaning, so browsers keep them for a year.
        'Cache-Control': 'public, max-age=31536000, immutable',
        // A stored SVG opened on its own must not run anything on the API's origin.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'X-Content-Type-Options': 'nosniff',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      }
      if (c.req.header('If-None-Match') === image.etag) return c.body(null, 304, headers)
      return c.body(image.body as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        'Content-Type': image.contentType,
      })
    })
  imageRoute('/getWalletImage/:id', 'wallet')
  imageRoute('/public/getAssetImage/:id', 'asset')
  imageRoute('/public/getCurrencyImage/:id', 'currency')
  imageRoute('/public/getTokenImage/:id', 'token')

  app.get('/getAnalyticsConfig', (c) => {
    const { project } = known(c, commonQuery)
    return c.json({ isAnalyticsEnabled: project.analyticsEnabled })
  })

  app.post('/e', async (c) => {
    const { project } = known(c, commonQuery)
    const event = parse(Analytics.event, await json(c))
    // The modal reports the host page it runs in (the origin it saw in the handshake); anyone else
    // reports for itself. Either way the origin must be on the project's list.
    const sender = c.req.header('Origin')
    const origin = sender && sender !== config.modalOrigin ? sender : new URL(event.url).origin
    if (!Projects.allows(project, origin)) throw new HttpError(403, messages.invalidAppConfiguration)
    if (!project.analyticsEnabled) return c.json({ stored: false }, 202)
    return c.json({ stored: await Analytics.record(db, project.id, origin, event) }, 202)
  })

  Sessions.routes(app, { db, config, now: options.now ?? Date.now })

  app.notFound((c) => c.json({ message: messages.notFound }, 404))
  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json({ message: error.message }, error.status)
    console.error('[airlock-api]', c.req.method, c.req.path, error)
    return c.json({ message: messages.internal }, 500)
  })
  return app
}

/** Parses the query with `shape` and requires a configured project (from the query or `bodyProjectId`). */
export function known<T extends { projectId: string }>(
  c: Context<Env>,
  shape: S.Shape<T>,
  bodyProjectId?: string,
): T & { project: Projects.Project } {
  const query = c.req.query()
  const parsed = parse(
    shape,
    bodyProjectId && !query.projectId ? { ...query, projectId: bodyProjectId } : query,
  )
  const project = c.get('project')
  if (!project || project.id !== parsed.projectId) throw new HttpError(403, messages.projectNotConfigured)
  return { ...parsed, project }
}

export function parse<T>(shape: S.Shape<T>, value: unknown): T {
  const parsed = S.parse(shape, value)
  if (!parsed.ok) throw new HttpError(400, parsed.message)
  return parsed.value
}

export async function json(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw new HttpError(400, messages.invalidJson)
  }
}
