/**
 * The chain's two listeners, laid out like a validator's: JSON-RPC over HTTP on `port` and the pubsub
 * WebSocket on `port + 1`, which is where @solana/web3.js's `Connection` looks for it. Each listener also
 * takes the other's traffic (HTTP POSTs on the WebSocket port, upgrades on the HTTP port), so a client given
 * one URL for both works too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { type WebSocket, WebSocketServer } from 'ws'
import type { PubSub } from './PubSub.ts'
import * as Rpc from './Rpc.ts'

export type ListenOptions = {
  host: string
  /** 0 picks a free port whose successor is free too. */
  port: number
  /** @default port + 1 */
  wsPort?: number
  methods: Rpc.Methods
  pubsub: PubSub
  onError?: (error: unknown) => void
}

export type Listening = { port: number; wsPort: number; stop(): Promise<void> }

// A Solana transaction is at most 1,232 bytes; a batch of a few hundred calls still fits many times over.
const maxBodyBytes = 1024 * 1024
const maxFrameBytes = 256 * 1024
const pairAttempts = 20
const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
}

export async function listen(options: ListenOptions): Promise<Listening> {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes })
  sockets.on('connection', (socket: WebSocket) => options.pubsub.accept(socket))
  const make = () => serverFor(options, sockets)
  const servers = await bind(options, make)
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= shutDown(servers.all, sockets)
    return stopping
  }
  return { port: servers.port, wsPort: servers.wsPort, stop }
}

type Bound = { port: number; wsPort: number; all: Server[] }

async function bind(options: ListenOptions, make: () => Server): Promise<Bound> {
  const { host, port, wsPort } = options
  if (wsPort !== undefined && wsPort === port && port !== 0) {
    const server = await listenOn(make(), host, port, 'RPC and WebSocket')
    return { port, wsPort: port, all: [server] }
  }
  if (port !== 0 || wsPort !== undefined) {
    const http = await listenOn(make(), host, port, 'RPC')
    const actual = portOf(http)
    try {
      const ws = await listenOn(make(), host, wsPort ?? actual + 1, 'WebSocket')
      return { port: actual, wsPort: portOf(ws), all: [http, ws] }
    } catch (error) {
      await close(http)
      throw error
    }
  }
  // An ephemeral pair: the OS picks the HTTP port, and its successor may be taken, so try a few.
  for (let attempt = 0; attempt < pairAttempts; attempt++) {
    const http = await listenOn(make(), host, 0, 'RPC')
    const actual = portOf(http)
    const ws = await listenOn(make(), host, actual + 1, 'WebSocket').catch(() => undefined)
    if (ws) return { port: actual, wsPort: actual + 1, all: [http, ws] }
    await close(http)
  }
  throw new Error(`found no free pair of adjacent ports on ${host} in ${pairAttempts} attempts`)
}

function serverFor(options: ListenOptions, sockets: WebSocketServer): Server {
  const server = createServer((request, response) => {
    serve(options, request, response).catch(() => response.destroy())
  })
  server.headersTimeout = 10_000
  server.on('upgrade', (request, socket, head) => {
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request))
  })
  return server
}

async function serve(
  options: ListenOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method === 'OPTIONS') return void response.writeHead(204, corsHeaders).end()
  if (request.method === 'GET' && request.url === '/health') {
    return void response.writeHead(200, { ...corsHeaders, 'content-type': 'text/plain' }).end('ok')
  }
  if (request.method !== 'POST') {
    response.writeHead(405, { ...corsHeaders, 'content-type': 'text/plain' })
    return void response.end('Used HTTP Method is not allowed. POST or OPTIONS is required')
  }
  const body = await readBody(request)
  if (body === undefined) {
    response.writeHead(413, { ...corsHeaders, connection: 'close' })
    return void response.end()
  }
  const reply = await Rpc.answer(body, options.methods, options.onError)
  response.writeHead(200, { ...corsHeaders, 'content-type': 'application/json' })
  response.end(reply ?? '')
}

/** The body as text, or undefined once it grows past the limit (the rest is not read). */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) {
        request.removeAllListeners('data')
        request.resume()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

function listenOn(server: Server, host: string, port: number, role: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'is already in use; stop whatever holds it (another Solana node?) or pick other ports'
          : `cannot be bound: ${error.message}`
      reject(new Error(`Solana ${role} port ${port} on ${host} ${reason}`))
    })
    server.listen({ host, port, exclusive: true }, () => {
      // Errors after listening concern one connection, never the whole node.
      server.removeAllListeners('error')
      server.on('error', () => {})
      resolve(server)
    })
  })
}

function portOf(server: Server): number {
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('server is not listening')
  return address.port
}

async function shutDown(servers: Server[], sockets: WebSocketServer): Promise<void> {
  for (const socket of sockets.clients) socket.terminate()
  await new Promise<void>((resolve) => sockets.close(() => resolve()))
  await Promise.all(servers.map(close))
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
