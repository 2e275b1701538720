/**
 * The modal origin as a server of its own, apart from the API: it opens no database and asks the API for
 * each project's origins (`Origins.fromApi`), so a flood on the API never delays the modal's files.
 * {@link listen} serves it in this process; {@link spawn} runs `cli.ts` in a child process, as the dev stack
 * does.
 */
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import * as Child from '../../internal/child.ts'
import * as ModalOrigin from './ModalOrigin.ts'
import * as Origins from './Origins.ts'

export type ListenOptions = {
  /** The modal app's build folder (`modal-app/dist`). */
  dir: string
  /** The API: written into the HTML for the modal, and asked for projects' origins. */
  apiUrl: string
  /** @default '127.0.0.1' */
  host?: string | undefined
  /** 0 picks a free port. @default 5174 */
  port?: number | undefined
}

export type Running = { url: string; stop(): Promise<void> }

/**
 * @example
 * const modal = await ModalOriginServer.listen({ dir: 'modal-app/dist', apiUrl: 'http://127.0.0.1:8787' })
 */
export async function listen(options: ListenOptions): Promise<Running> {
  const host = options.host ?? '127.0.0.1'
  const app = ModalOrigin.create({ ...options, origins: Origins.fromApi(options.apiUrl) })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        hostname: host,
        port: options.port ?? 5174,
        // A client that trickles its headers or body cannot hold a socket for Node's default minutes (checked
        // every second: Node's own 30 s check would triple the 10 s).
        serverOptions: { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
      },
      () => resolve(server),
    )
    server.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Browsers keep connections alive, which would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}

export type SpawnOptions = ListenOptions & Pick<Child.SpawnOptions, 'track' | 'timeoutMs'>

export type Spawned = Child.Spawned

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
// The child runs TypeScript as every script of this repo does; by path, so any working directory works.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

/**
 * Runs the modal origin in a child process and resolves once it listens. The child writes its errors to
 * this process's stderr and ends when this process does (its IPC channel closes).
 * @example
 * const modal = await ModalOriginServer.spawn({ dir, apiUrl, port: 5174, track: Reaper.track })
 * await modal.stop()
 */
export function spawn(options: SpawnOptions): Promise<Spawned> {
  const args = ['--dir', options.dir, '--api-url', options.apiUrl, '--port', String(options.port ?? 5174)]
  if (options.host) args.push('--host', options.host)
  return Child.spawn({
    name: 'The modal origin',
    args: ['--import', tsx, cli, ...args],
    track: options.track,
    timeoutMs: options.timeoutMs,
  })
}
