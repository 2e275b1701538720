/**
 * A local WalletConnect v2 relay for `npm start` and the tests, so pairing a dApp with a wallet never needs
 * relay.walletconnect.org. It speaks the relay's JSON-RPC over WebSocket: the `irn_*` methods plus the
 * `wc_proposeSession` / `wc_approveSession` shortcuts that @walletconnect/sign-client 2.25 uses to pair.
 * Messages are kept per topic until their ttl runs out and handed to every later subscriber, the way the
 * real relay's mailbox lets a wallet pick up a proposal published before it scanned the QR code.
 *
 * This module owns the socket server and its connections; the wire format, methods, mailbox and fan-out
 * live in `./relay/`.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { type RawData, WebSocket, WebSocketServer } from 'ws'
import * as Fanout from './relay/Fanout.ts'
import * as Gate from './relay/Gate.ts'
import * as JsonRpc from './relay/JsonRpc.ts'
import * as Mailbox from './relay/Mailbox.ts'
import * as Methods from './relay/Methods.ts'

export type StartOptions = {
  /** Port to listen on; 8790 by default, 0 picks a free one. */
  port?: number
  /** Interface to bind; loopback by default so nothing outside this machine can use the relay. */
  host?: string
  /** Sockets one address may hold open; one more is refused with HTTP 429 before it upgrades. @default 64 */
  maxSocketsPerAddress?: number
  /**
   * A socket that sends no frame for this long is closed (1000). Pongs do not count: a peer's WebSocket
   * answers pings by itself, busy or abandoned. sign-client reconnects at once when it still has topics,
   * and the mailbox keeps what was published meanwhile. @default 300_000 (a pairing lasts at most 5 min)
   */
  idleTimeoutMs?: number
}

export type Instance = {
  /** What to pass as `relayUrl` to `SignClient.init`, e.g. `ws://127.0.0.1:8790`. */
  url: string
  port: number
  /** Closes every connection and the server; safe to call more than once. */
  stop(): Promise<void>
}

export const defaultPort = 8790

// sign-client drops a socket that has been silent for 35 s (30 s + 5 s), so ping well inside that.
const pingIntervalMs = 15_000
const closeGraceMs = 500
/**
 * The largest frame taken; a bigger one closes its socket with 1009. The public relay refuses messages
 * over 96 KiB ("Payload size limit exceeded. Maximum size for tag 1109 is 98304"), so no real client needs
 * more; 1 MiB leaves ten times that for the JSON-RPC envelope while bounding what one frame can cost.
 */
export const maxPayloadBytes = 1024 * 1024

/**
 * Starts the relay and resolves once it accepts connections.
 * @example
 * const relay = await Relay.start({ port: 0 })
 * const client = await SignClient.init({ projectId: 'local', relayUrl: relay.url })
 * await relay.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  const http = createServer((_, response) => {
    response.writeHead(426, { Connection: 'close' }).end()
  })
  // A WebSocket handshake is one small request: it gets 10 s, not Node's 60.
  http.headersTimeout = 10_000
  const server = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes })
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      const taken = error.code === 'EADDRINUSE'
      reject(
        taken ? new Error(`relay port ${options.port ?? defaultPort} on ${host} is already in use`) : error,
      )
    })
    http.listen(options.port ?? defaultPort, host, resolve)
  })
  const address = http.address()
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? defaultPort)
  const state = Fanout.create()
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000
  let stopping: Promise<void> | undefined
  // Errors after listening (e.g. a failed upgrade) concern one connection, never the whole relay.
  http.on('error', () => {})
  const gate = Gate.create(options.maxSocketsPerAddress ?? 64)
  http.on('upgrade', (request, socket, head) => {
    if (stopping) return Gate.refuse(socket, 503)
    if (!gate.admit(request.socket.remoteAddress, socket)) return Gate.refuse(socket, 429)
    server.handleUpgrade(request, socket, head, (ws) => accept(state, ws, request, idleTimeoutMs))
  })
  const heartbeat = setInterval(() => pingAll(state), pingIntervalMs)
  const stop = () => {
    stopping ??= shutDown(state, server, http, heartbeat)
    return stopping
  }
  return { url: `ws://${urlHost(host)}:${port}`, port, stop }
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

async function shutDown(
  state: Fanout.State,
  server: WebSocketServer,
  http: Server,
  heartbeat: NodeJS.Timeout,
): Promise<void> {
  clearInterval(heartbeat)
  await Promise.all([...state.clients].map((client) => closeGracefully(client.socket)))
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await new Promise<void>((resolve) => {
    http.close(() => resolve())
    http.closeAllConnections()
  })
  state.subscribers.clear()
  state.mailbox.clear()
}

function closeGracefully(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve()
  return new Promise((resolve) => {
    // A peer that never answers the close handshake would otherwise hold stop() for ws's 30 s close timeout.
    const force = setTimeout(() => socket.terminate(), closeGraceMs)
    socket.once('close', () => {
      clearTimeout(force)
      resolve()
    })
    socket.close(1001, 'relay stopping')
  })
}

function pingAll(state: Fanout.State): void {
  for (const client of state.clients) {
    if (!client.alive) {
      client.socket.terminate()
      continue
    }
    client.alive = false
    client.socket.ping()
  }
  Mailbox.pruneAll(state.mailbox)
}

function accept(
  state: Fanout.State,
  socket: WebSocket,
  request: IncomingMessage,
  idleTimeoutMs: number,
): void {
  const client: Fanout.Client = {
    socket,
    key: clientKeyOf(request),
    subscriptions: new Map(),
    unacknowledged: new Map(),
    alive: true,
  }
  state.clients.add(client)
  const idle = setTimeout(() => socket.close(1000, 'idle'), idleTimeoutMs)
  socket.on('pong', () => {
    client.alive = true
  })
  socket.on('message', (data) => {
    idle.refresh()
    onFrame(state, client, data)
  })
  // ws closes the socket itself after a protocol error (1009 for a frame over maxPayload); the listener only
  // keeps the error from being fatal.
  socket.on('error', () => {})
  socket.on('close', () => {
    clearTimeout(idle)
    state.clients.delete(client)
    Fanout.detach(state, client)
  })
}

/**
 * Any projectId or auth is accepted: this relay is for loopback development, so the JWT only tells clients
 * apart. Its signature is not checked for the same reason.
 */
function clientKeyOf(request: IncomingMessage): string {
  const auth = new URL(request.url ?? '/', 'ws://relay').searchParams.get('auth')
  return (auth && jwtIssuer(auth)) || `anonymous:${randomUUID()}`
}

function jwtIssuer(jwt: string): string | undefined {
  const payload = jwt.split('.')[1]
  if (!payload) return undefined
  const claims = JsonRpc.parseJson(Buffer.from(payload, 'base64url').toString('utf8'))
  return JsonRpc.isRecord(claims) && typeof claims.iss === 'string' && claims.iss !== ''
    ? claims.iss
    : undefined
}

function onFrame(state: Fanout.State, client: Fanout.Client, data: RawData): void {
  const frame = JsonRpc.parse(data)
  if (frame.kind === 'invalid')
    JsonRpc.send(client.socket, { jsonrpc: '2.0', id: frame.id, error: frame.error })
  else if (frame.kind === 'response') Fanout.acknowledge(client, frame.id, frame.failed)
  else onRequest(state, client, frame)
}

function onRequest(state: Fanout.State, client: Fanout.Client, request: JsonRpc.Request): void {
  const { reply, afterReply } = Methods.run(state, client, request)
  // A request without an id is a notification: JSON-RPC forbids answering it, even with an error.
  if (request.id !== undefined) JsonRpc.send(client.socket, { jsonrpc: '2.0', id: request.id, ...reply })
  afterReply?.()
}
