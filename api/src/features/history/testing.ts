/**
 * Test support for the history feature: anvil on a free port, an RPC proxy that can go away and come back,
 * the route behind the API's project middleware, and waiting for the indexer.
 */
import { createServer, type Server } from 'node:http'
import { Hono } from 'hono'
import { type Address, createTestClient, createWalletClient, type Hash, http, publicActions } from 'viem'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Accounts, Anvil } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Database from '../../Database.ts'
import { onError } from '../../http/errors.ts'
import * as Project from '../../http/project.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import { ether } from '../../internal/testApi.ts'
import type { PriceSource } from '../balances/Prices.ts'
import * as Projects from '../projects/Projects.ts'
import * as History from './index.ts'
import * as Store from './Store.ts'

export const projectId = 'demo'
export const accounts = Accounts.all().map((account) => account.address as Address)

export type TestChain = Awaited<ReturnType<typeof startChain>>

/** An anvil node on a free port, and a wallet client whose accounts anvil signs for. */
export async function startChain(chainId: number) {
  const anvil = await Anvil.start({ port: await closedPort(), chainId })
  const client = createWalletClient({ transport: http(anvil.rpcUrl), pollingInterval: 20 })
    .extend(publicActions)
    .extend(() => ({ test: createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }) }))
  const chain: Config.Chain = {
    id: `eip155:${chainId}`,
    name: `Test ${chainId}`,
    rpcUrl: anvil.rpcUrl,
    nativeCurrency: ether,
  }
  /** Sends `wei` from `from` to `to` and waits until it is mined. */
  const send = async (from: Address, to: Address, wei = 1_000n): Promise<Hash> => {
    const hash = await client.sendTransaction({ account: from, to, value: wei, chain: null })
    await client.waitForTransactionReceipt({ hash })
    return hash
  }
  return { anvil, client, chain, send, stop: () => anvil.stop() }
}

/** One raw JSON-RPC call (anvil's own methods, which viem's clients do not type). */
export async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

/** An HTTP proxy in front of an RPC: `down()` closes its port (connections refused), `up()` opens it again. */
export async function rpcProxy(target: string) {
  let server: Server | undefined
  const port = await closedPort()
  const up = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(async (request, response) => {
        const chunks: Buffer[] = []
        for await (const chunk of request) chunks.push(chunk as Buffer)
        try {
          const answer = await fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: Buffer.concat(chunks),
          })
          response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
        } catch {
          response.writeHead(502).end()
        }
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
  const down = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve()
      server.close(() => resolve())
      server.closeAllConnections()
      server = undefined
    })
  await up()
  return { url: `http://127.0.0.1:${port}`, up, down }
}

/** The history route as the API serves it: behind the project middleware and the JSON error handler. */
export async function historyApp(db: Database.Database, chains: Config.Chain[], prices?: PriceSource) {
  if (!(await Projects.find(db, projectId))) await Projects.add(db, projectId, [])
  const app = new Hono<Project.Env>()
  app.use(Project.middleware(Project.lookup(db)))
  app.route('/', History.create({ db, config: { chains }, prices }))
  app.onError(onError)
  return app
}

/**
 * Polls `check` every 25 ms until it returns something other than undefined/false, or fails after `ms`: a
 * limit that only catches what never comes, which a machine busy with other work must not reach.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  what = 'a condition',
  ms = 60_000,
) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Waits until the store has indexed the chain's current head (same height and hash). */
export async function caughtUp(db: Database.Database, chain: TestChain, ms = 60_000) {
  await waitFor(
    async () => {
      const [head, at] = await Promise.all([
        chain.client.getBlock({ blockTag: 'latest' }),
        Store.cursor(db, chain.chain.id),
      ])
      return at?.height === Number(head.number) && at.hash === head.hash
    },
    `${chain.chain.id} to be indexed`,
    ms,
  )
}

let databaseSerial = 0

/**
 * A PostgreSQL database of its own on the server of `AIRLOCK_TEST_DATABASE_URL`, for tests that open it
 * twice (two replicas); undefined without a server.
 */
export async function sharedPostgres() {
  const server = process.env.AIRLOCK_TEST_DATABASE_URL
  if (!server) return undefined
  const { default: pg } = await import('pg')
  const name = `airlock_history_${process.pid}_${Date.now()}_${++databaseSerial}`
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server })
    await client.connect()
    await client.query(sql)
    await client.end()
  }
  await admin(`create database ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    open: () => Database.open({ url: url.toString() }),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  }
}

export type TestDatabase = { db: Database.Database; lockUrl: string | undefined; close(): Promise<void> }

/**
 * The engines the suite runs on, as `internal/testing.ts` has them (PGlite always, PostgreSQL when
 * `AIRLOCK_TEST_DATABASE_URL` is set), with the URL the indexer's lock session needs on PostgreSQL.
 */
export function engines(): { engine: string; open(): Promise<TestDatabase> }[] {
  const pglite = {
    engine: 'pglite',
    async open(): Promise<TestDatabase> {
      const db = await memoryDatabase()
      return { db, lockUrl: undefined, close: () => db.close() }
    },
  }
  if (!process.env.AIRLOCK_TEST_DATABASE_URL) return [pglite]
  const postgres = {
    engine: 'postgres',
    async open(): Promise<TestDatabase> {
      const shared = await sharedPostgres()
      if (!shared) throw new Error('no PostgreSQL')
      const db = await shared.open()
      return {
        db,
        lockUrl: shared.url,
        async close() {
          await db.close()
          await shared.drop()
        },
      }
    },
  }
  return [pglite, postgres]
}
