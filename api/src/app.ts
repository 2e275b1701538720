/**
 * The API: one Hono sub-app per feature under `features/`, behind the shared plumbing of `http/` (CORS, rate
 * limits, the request's project, a body limit, a time-out, JSON errors). Every input is parsed once, at its
 * route, with the shapes of `contract/` or the feature's own.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Cache } from './Cache.ts'
import type { Config } from './Config.ts'
import type { Database } from './Database.ts'
import type * as Events from './features/analytics/Analytics.ts'
import * as Analytics from './features/analytics/routes.ts'
import * as Auth from './features/auth/routes.ts'
import type { PriceSource } from './features/balances/Prices.ts'
import * as Balances from './features/balances/routes.ts'
import * as Bundler from './features/bundler/routes.ts'
import * as Esplora from './features/esplora/chains.ts'
import * as History from './features/history/index.ts'
import type { IdentitySource } from './features/identity/Identity.ts'
import * as Identity from './features/identity/routes.ts'
import * as Names from './features/names/routes.ts'
import * as Onramp from './features/onramp/routes.ts'
import * as Paymaster from './features/paymaster/routes.ts'
import * as Projects from './features/projects/routes.ts'
import * as Registry from './features/registry/routes.ts'
import * as Rpc from './features/rpc/routes.ts'
import * as Sessions from './features/sessions/routes.ts'
import * as Siwx from './features/siwx/routes.ts'
import type { AdapterOf } from './features/swaps/Adapter.ts'
import * as Swaps from './features/swaps/routes.ts'
import * as Wallet from './features/wallet/routes.ts'
import * as Buckets from './http/buckets.ts'
import { cors } from './http/cors.ts'
import { HttpError, messages, notFound, onError } from './http/errors.ts'
import * as Limits from './http/limits.ts'
import * as Project from './http/project.ts'
import { timeout } from './http/timeout.ts'

export type AppOptions = {
  db: Database
  config: Config
  cache: Cache
  prices: PriceSource
  identity: IdentitySource
  /** Where analytics events wait to be written in batches (`Service` flushes it when it stops). */
  events: Events.Buffer
  /** Each chain's DEX for swaps. @default Uniswap v2 where a chain's `swaps.uniswapV2` names one */
  swaps?: AdapterOf | undefined
  /** @default Date.now */
  now?: (() => number) | undefined
}

/** The largest body any route takes: analytics events and sign-in messages stay far below it. */
const maxBodyBytes = 64 * 1024

/**
 * @example
 * const api = App.create({ db, config, cache, prices, identity, events: Events.buffer({ db }) })
 * await api.request('/v1/supported-chains?projectId=demo')
 */
export function create(options: AppOptions): Hono<Project.Env> {
  const { db, config, cache } = options
  const now = options.now ?? Date.now
  const findProject = Project.lookup(db, options.now)
  const limits = Limits.resolve(config.limits)
  const { headers, preflight } = cors(config.modalOrigin)
  const app = new Hono<Project.Env>()

  // The order is the point: CORS marks every answer, refusals included; a client over its budget costs
  // no project lookup; a project's budget is spent only by requests that passed the client's.
  app.use(headers)
  app.use(Limits.perClient(Buckets.create(limits.perClient, { now }), limits.trustedProxies))
  app.use(Project.middleware(findProject))
  app.use(preflight)
  app.use(Limits.perProject(Buckets.create(limits.perProject, { now })))
  const limitBody = bodyLimit({
    maxSize: maxBodyBytes,
    onError: () => {
      throw new HttpError(413, messages.tooLarge)
    },
  })
  // A GET or HEAD has no body to limit; asking for it would build a whole fetch Request per request. A body
  // with a Content-Length is held to it by Node's parser, so the header alone decides: hono's bodyLimit
  // first touches `c.req.raw.body`, which makes @hono/node-server build a web stream over the request that
  // every later read goes through (POST /e under a flood of 200 connections: 695 answers a second so, 12
  // never answered in 10 s; 2,181 a second and none lost without). Only a chunked body is counted as it streams.
  app.use(async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const length = c.req.header('Content-Length')
    if (length === undefined || c.req.header('Transfer-Encoding') !== undefined) return limitBody(c, next)
    if (Number(length) > maxBodyBytes) throw new HttpError(413, messages.tooLarge)
    return next()
  })
  app.use(timeout(limits.requestTimeoutMs))
  app.get('/health', (c) => c.json({ ok: true }))

  const bitcoin = Esplora.mount(app, config.chains)
  app.route('/', Balances.create({ config, cache, prices: options.prices, findProject, bitcoin }))
  app.route('/', History.create({ db, config, prices: options.prices }))
  app.route('/', Identity.create({ cache, identity: options.identity }))
  app.route('/', Names.create({ db, config, now }))
  app.route('/', Onramp.create({ db, config, findProject, now }))
  app.route('/', Projects.create())
  app.route('/', Registry.create({ db, now }))
  app.route('/', Rpc.create({ config }))
  app.route('/', Bundler.create({ config }))
  app.route('/', Paymaster.create({ config, db, now }))
  app.route('/', Swaps.create({ config, prices: options.prices, findProject, adapterOf: options.swaps, now }))
  app.route('/', Analytics.create({ events: options.events, config }))
  // Before sign-in's: both answer `/v1/sessions/{address}` (docs/behaviour.md §7), smart sessions hand sign-in's on.
  app.route('/', Sessions.create({ db, config, now }))
  app.route('/', Siwx.create({ db, config, now }))
  app.route('/', Auth.create({ db, config, now }))
  app.route('/', Wallet.create({ db, config, now }))

  app.notFound(notFound)
  app.onError(onError)
  return app
}
