/**
 * The service: the API and the modal origin over one database, each a Hono app, and {@link start} to
 * serve both from one process. Stateless apart from the database, so any number of processes can run
 * behind a load balancer on one PostgreSQL.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import * as Api from './app.ts'
import * as Cache from './Cache.ts'
import type { Config } from './Config.ts'
import type { Database } from './Database.ts'
import * as Analytics from './features/analytics/Analytics.ts'
import * as Prices from './features/balances/Prices.ts'
import * as Identity from './features/identity/Identity.ts'
import * as ModalOrigin from './features/modal-origin/ModalOrigin.ts'
import * as Origins from './features/modal-origin/Origins.ts'
import * as Identities from './features/names/Identities.ts'
import * as OnChain from './features/names/OnChain.ts'
import type * as Swaps from './features/swaps/Adapter.ts'

export type ServiceOptions = {
  db: Database
  config: Config
  /**
   * The modal app's build folder, to serve the modal origin from this process too (it reads origins from
   * the database); without it, none is. The dev stack runs it apart: `features/modal-origin/cli.ts`.
   */
  modalDir?: string | undefined
  /** Where prices come from. @default Prices.fromDatabase(db) */
  prices?: Prices.PriceSource | undefined
  /** Where names and avatars come from. @default Identity.fromDatabase(db) */
  identity?: Identity.IdentitySource | undefined
  /**
   * Each chain's DEX, to swap through an aggregator (`Swaps.SwapAdapter`).
   * @default Uniswap v2 where a chain's `swaps.uniswapV2` names one
   */
  swaps?: Swaps.AdapterOf | undefined
  /** The clock of the caches (tests move it). @default Date.now */
  now?: (() => number) | undefined
  /** How analytics events are buffered before they are written (tests decide when a batch is written). */
  analytics?: Omit<Analytics.BufferOptions, 'db'> | undefined
}

/** A Hono app as the service uses it: something to serve, and to call in tests. */
export type App = Pick<Hono, 'fetch' | 'request'>

export type Service = {
  api: App
  modal: App | undefined
  /** Writes the analytics events answered but not yet stored: {@link listen}'s `stop()` does, last. */
  flush(): Promise<void>
}

/**
 * @example
 * const service = Service.create({ db, config })
 * const response = await service.api.request('/v1/supported-chains?projectId=demo')
 */
export function create(options: ServiceOptions): Service {
  const { db, config } = options
  const events = Analytics.buffer({ db, ...options.analytics })
  return {
    api: Api.create({
      db,
      config,
      cache: Cache.create(db, options.now ?? Date.now),
      prices: options.prices ?? Prices.fromDatabase(db),
      // Project names and ENS primary names first, then the deployment's own source.
      identity: Identities.source({
        db,
        ens: OnChain.fromConfig(config),
        fallback: options.identity ?? Identity.fromDatabase(db),
      }),
      events,
      swaps: options.swaps,
      now: options.now,
    }),
    flush: () => events.flush(),
    modal: options.modalDir
      ? ModalOrigin.create({
          dir: options.modalDir,
          apiUrl: config.apiUrl,
          origins: Origins.fromDatabase(db),
        })
      : undefined,
  }
}

export type ListenOptions = {
  /** @default '127.0.0.1' */
  host?: string
  /** 0 picks a free port. @default 8787 */
  apiPort?: number
  /** 0 picks a free port. @default 5174 */
  modalPort?: number
  /**
   * How long a client may take to send a request's headers, and the whole request: a slow client (one byte
   * a minute, "slowloris") cannot hold a connection longer. @default { headersMs: 10_000, requestMs: 30_000 }
   */
  receiveTimeouts?: { headersMs?: number; requestMs?: number }
}

/** Node checks the receive time-outs this often (its default, 30 s, would triple a 10 s limit). */
const receiveCheckMs = 1_000

export type Running = { apiUrl: string; modalUrl: string | undefined; stop(): Promise<void> }

/**
 * Serves the API (and the modal origin when the service has one) until `stop()`.
 * @example
 * const running = await Service.listen(Service.create({ db, config, modalDir }), { apiPort: 8787, modalPort: 5174 })
 */
export async function listen(service: Service, options: ListenOptions = {}): Promise<Running> {
  const host = options.host ?? '127.0.0.1'
  const serverOptions = {
    headersTimeout: options.receiveTimeouts?.headersMs ?? 10_000,
    requestTimeout: options.receiveTimeouts?.requestMs ?? 30_000,
    connectionsCheckingInterval: receiveCheckMs,
  }
  const servers: ReturnType<typeof serve>[] = []
  const open = (app: App, port: number) =>
    new Promise<string>((resolve, reject) => {
      // Node itself discards a body no route read once the answer is sent. @hono/node-server's own clean-up
      // for that wraps every POST's body stream: under a flood of 200 connections a POST answered 404 came
      // back 251 times a second with it, 1,285 without, and POST /e 111 against 2,181 (with 40-75 of them
      // never answered in 10 s, none without).
      const server = serve(
        { fetch: app.fetch, hostname: host, port, serverOptions, autoCleanupIncoming: false },
        (info: AddressInfo) => resolve(`http://${host.includes(':') ? `[${host}]` : host}:${info.port}`),
      )
      server.once('error', reject)
      servers.push(server)
    })
  const stop = async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve())
            // Keep-alive connections (browsers, load generators) would hold close() open.
            if ('closeAllConnections' in server) server.closeAllConnections()
          }),
      ),
    )
    // Every event answered 202 is stored before the database closes; what the database refuses now is lost.
    await service.flush().catch((error: Error) => {
      console.error('[airlock-api] Analytics events were not stored at shutdown:', error.message)
    })
  }
  try {
    const apiUrl = await open(service.api, options.apiPort ?? 8787)
    const modalUrl = service.modal ? await open(service.modal, options.modalPort ?? 5174) : undefined
    return { apiUrl, modalUrl, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
