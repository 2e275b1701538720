/**
 * A local WalletConnect v2 relay for `npm start` and the tests, so pairing a dApp with a wallet never needs
 * relay.walletconnect.org. It speaks the relay's JSON-RPC over WebSocket: the `irn_*` methods plus the
 * `wc_proposeSession` / `wc_approveSession` shortcuts that @walletconnect/sign-client 2.25 uses to pair.
 * Messages are kept per topic until their ttl runs out and handed to every later subscriber, the way the
 * real relay's mailbox lets a wallet pick up a proposal published before it scanned the QR code.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { type RawData, WebSocket, WebSocketServer } from 'ws'

export type StartOptions = {
  /** Port to listen on; 8790 by default, 0 picks a free one. */
  port?: number
  /** Interface to bind; loopback by default so nothing outside this machine can use the relay. */
  host?: string
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
// The hosted relay's upper bound too; without one a runaway client could fill the dev machine's memory.
const maxTtlSeconds = 30 * 24 * 60 * 60
// sign-client 2.25 sends no ttl for the `wc_*` shortcuts' payloads and relies on the relay's 5-minute default.
const defaultShortcutTtlSeconds = 5 * 60
const maxMessagesPerTopic = 1_000
const maxPayloadBytes = 4 * 1024 * 1024
// The tags the real relay gives the messages it publishes on a client's behalf (sign-client's wc_sessionPropose
// request, its response and wc_sessionSettle); clients ignore them, but logs and tests read the same numbers.
const proposalTag = 1100
const proposalResponseTag = 1101
const settlementTag = 1102

const parseError = { code: -32700, message: 'Parse error' }
const invalidRequest = { code: -32600, message: 'Invalid request' }
const methodNotFound = { code: -32601, message: 'Method not found' }
const internalError = { code: -32603, message: 'Internal error' }
const invalidParams = (message: string) => ({ code: -32602, message })

type JsonRpcId = string | number | null
type JsonRpcError = { code: number; message: string }

type StoredMessage = {
  topic: string
  message: string
  publishedAt: number
  tag: number
  attestation?: string
  expiresAt: number
  /** Client keys that already have it, the publisher first, so nobody gets a message twice or their own back. */
  deliveredTo: Set<string>
}

type Client = {
  socket: WebSocket
  /** The client's did:key from its auth JWT, so a reconnect resumes its mailbox instead of starting over. */
  key: string
  /** topic → subscription id */
  subscriptions: Map<string, string>
  /** push request id → message, until the client acknowledges it */
  unacknowledged: Map<number, StoredMessage>
  alive: boolean
}

type State = {
  clients: Set<Client>
  subscribers: Map<string, Set<Client>>
  mailbox: Map<string, StoredMessage[]>
  nextPushId: number
}

type Params = Record<string, unknown>
type Outcome = { result: unknown; afterReply?: () => void }
type Method = (state: State, client: Client, params: Params) => Outcome

class InvalidParams extends Error {}

/**
 * Starts the relay and resolves once it accepts connections.
 * @example
 * const relay = await Relay.start({ port: 0 })
 * const client = await SignClient.init({ projectId: 'local', relayUrl: relay.url })
 * await relay.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  const server = new WebSocketServer({ host, port: options.port ?? defaultPort, maxPayload: maxPayloadBytes })
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', (error: NodeJS.ErrnoException) => {
      const taken = error.code === 'EADDRINUSE'
      reject(
        taken ? new Error(`relay port ${options.port ?? defaultPort} on ${host} is already in use`) : error,
      )
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? defaultPort)
  const state: State = { clients: new Set(), subscribers: new Map(), mailbox: new Map(), nextPushId: 1 }
  let stopping: Promise<void> | undefined
  // Errors after listening (e.g. a failed upgrade) concern one connection, never the whole relay.
  server.on('error', () => {})
  server.on('connection', (socket, request) => {
    if (stopping) {
      socket.terminate()
      return
    }
    accept(state, socket, request)
  })
  const heartbeat = setInterval(() => pingAll(state), pingIntervalMs)
  const stop = () => {
    stopping ??= shutDown(state, server, heartbeat)
    return stopping
  }
  return { url: `ws://${urlHost(host)}:${port}`, port, stop }
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

async function shutDown(state: State, server: WebSocketServer, heartbeat: NodeJS.Timeout): Promise<void> {
  clearInterval(heartbeat)
  await Promise.all([...state.clients].map((client) => closeGracefully(client.socket)))
  await new Promise<void>((resolve) => server.close(() => resolve()))
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

function pingAll(state: State): void {
  for (const client of state.clients) {
    if (!client.alive) {
      client.socket.terminate()
      continue
    }
    client.alive = false
    client.socket.ping()
  }
  for (const topic of state.mailbox.keys()) prune(state, topic)
}

function accept(state: State, socket: WebSocket, request: IncomingMessage): void {
  const client: Client = {
    socket,
    key: clientKeyOf(request),
    subscriptions: new Map(),
    unacknowledged: new Map(),
    alive: true,
  }
  state.clients.add(client)
  socket.on('pong', () => {
    client.alive = true
  })
  socket.on('message', (data) => onFrame(state, client, data))
  // ws closes the socket itself after a protocol error; the listener only keeps the error from being fatal.
  socket.on('error', () => {})
  socket.on('close', () => forget(state, client))
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
  const claims = parseJson(Buffer.from(payload, 'base64url').toString('utf8'))
  return isRecord(claims) && typeof claims.iss === 'string' && claims.iss !== '' ? claims.iss : undefined
}

function forget(state: State, client: Client): void {
  state.clients.delete(client)
  for (const topic of client.subscriptions.keys()) removeSubscriber(state, topic, client)
  // Unacknowledged pushes may never have arrived; let the client's next connection pick them up again.
  for (const stored of client.unacknowledged.values()) stored.deliveredTo.delete(client.key)
  client.unacknowledged.clear()
}

type Frame =
  | { kind: 'request'; id: JsonRpcId | undefined; method: string; params: unknown }
  | { kind: 'response'; id: unknown; failed: boolean }
  | { kind: 'invalid'; id: JsonRpcId; error: JsonRpcError }

function onFrame(state: State, client: Client, data: RawData): void {
  const frame = classify(rawText(data))
  if (frame.kind === 'invalid') sendError(client, frame.id, frame.error)
  else if (frame.kind === 'response') onResponse(client, frame.id, frame.failed)
  else onRequest(state, client, frame)
}

function classify(text: string): Frame {
  const frame = parseJson(text)
  if (frame === undefined) return { kind: 'invalid', id: null, error: parseError }
  if (!isRecord(frame)) return { kind: 'invalid', id: null, error: invalidRequest }
  const id = 'id' in frame ? rpcId(frame.id) : undefined
  if ('id' in frame && id === undefined) return { kind: 'invalid', id: null, error: invalidRequest }
  const { method, params } = frame
  if (typeof method === 'string') return { kind: 'request', id, method, params }
  if (!('method' in frame) && ('result' in frame || 'error' in frame)) {
    return { kind: 'response', id: frame.id, failed: !('result' in frame) }
  }
  return { kind: 'invalid', id: id ?? null, error: invalidRequest }
}

type Request = Extract<Frame, { kind: 'request' }>
type Reply = { result: unknown } | { error: JsonRpcError }

function onRequest(state: State, client: Client, request: Request): void {
  const { reply, afterReply } = run(state, client, request)
  // A request without an id is a notification: JSON-RPC forbids answering it, even with an error.
  if (request.id !== undefined) send(client, { jsonrpc: '2.0', id: request.id, ...reply })
  afterReply?.()
}

function run(state: State, client: Client, request: Request): { reply: Reply; afterReply?: () => void } {
  const method = methods.get(request.method)
  if (!method) return { reply: { error: methodNotFound } }
  if (!isRecord(request.params)) return { reply: { error: invalidParams('params must be an object') } }
  try {
    const { result, afterReply } = method(state, client, request.params)
    return { reply: { result }, afterReply }
  } catch (error) {
    if (error instanceof InvalidParams) return { reply: { error: invalidParams(error.message) } }
    // One bad request must not take down the relay every other client is using.
    return { reply: { error: internalError } }
  }
}

function onResponse(client: Client, id: unknown, failed: boolean): void {
  if (typeof id !== 'number') return
  const stored = client.unacknowledged.get(id)
  if (!stored) return
  client.unacknowledged.delete(id)
  // A client that refused the push should get it again when it next subscribes.
  if (failed) stored.deliveredTo.delete(client.key)
}

const methods = new Map<string, Method>([
  ['irn_subscribe', subscribeMethod],
  ['irn_batchSubscribe', batchSubscribeMethod],
  ['irn_unsubscribe', unsubscribeMethod],
  ['irn_batchUnsubscribe', batchUnsubscribeMethod],
  ['irn_publish', publishMethod],
  ['irn_batchFetchMessages', batchFetchMessagesMethod],
  ['wc_proposeSession', proposeSessionMethod],
  ['wc_approveSession', approveSessionMethod],
])

function subscribeMethod(state: State, client: Client, params: Params): Outcome {
  const topic = requireString(params, 'topic')
  const id = subscribe(state, client, topic)
  return { result: id, afterReply: () => deliverPending(state, client, topic) }
}

function batchSubscribeMethod(state: State, client: Client, params: Params): Outcome {
  const topics = requireTopics(params, 'topics')
  const ids = topics.map((topic) => subscribe(state, client, topic))
  const afterReply = () => {
    for (const topic of topics) deliverPending(state, client, topic)
  }
  return { result: ids, afterReply }
}

function unsubscribeMethod(state: State, client: Client, params: Params): Outcome {
  unsubscribe(state, client, requireString(params, 'topic'))
  return { result: true }
}

function batchUnsubscribeMethod(state: State, client: Client, params: Params): Outcome {
  const subscriptions = params.subscriptions
  if (!Array.isArray(subscriptions)) throw new InvalidParams('subscriptions must be an array')
  const topics = subscriptions.map((entry: unknown) => {
    if (!isRecord(entry)) throw new InvalidParams('each subscription must be an object')
    return requireString(entry, 'topic')
  })
  for (const topic of topics) unsubscribe(state, client, topic)
  return { result: true }
}

function publishMethod(state: State, client: Client, params: Params): Outcome {
  const topic = requireString(params, 'topic')
  const message = requireString(params, 'message')
  const ttl = ttlOf(params)
  const tag = optionalTag(params)
  const attestation = optionalString(params, 'attestation')
  return { result: true, afterReply: () => publish(state, client, { topic, message, ttl, tag, attestation }) }
}

function batchFetchMessagesMethod(state: State, client: Client, params: Params): Outcome {
  const topics = requireTopics(params, 'topics')
  const messages = topics.flatMap((topic) => {
    prune(state, topic)
    const waiting = (state.mailbox.get(topic) ?? []).filter((stored) => !stored.deliveredTo.has(client.key))
    for (const stored of waiting) stored.deliveredTo.add(client.key)
    return waiting.map(subscriptionData)
  })
  return { result: { messages, hasMore: false } }
}

/**
 * sign-client 2.25 publishes a session proposal through this one call instead of `irn_publish`: the relay
 * subscribes the dApp to the pairing topic (so the wallet's answer reaches it) and files the proposal there.
 */
function proposeSessionMethod(state: State, client: Client, params: Params): Outcome {
  const pairingTopic = requireString(params, 'pairingTopic')
  const message = requireString(params, 'sessionProposal')
  const ttl = ttlOf(params, defaultShortcutTtlSeconds)
  const attestation = optionalString(params, 'attestation')
  subscribe(state, client, pairingTopic)
  return {
    result: true,
    afterReply: () =>
      publish(state, client, { topic: pairingTopic, message, ttl, tag: proposalTag, attestation }),
  }
}

/**
 * The wallet's approval in one call: the proposal response goes to the pairing topic, the settlement request
 * to the new session topic, and the wallet is subscribed to the session topic here because sign-client
 * 2.25 records that subscription locally (`skipSubscribe`) without ever sending `irn_subscribe` for it.
 */
function approveSessionMethod(state: State, client: Client, params: Params): Outcome {
  const pairingTopic = requireString(params, 'pairingTopic')
  const sessionTopic = requireString(params, 'sessionTopic')
  const response = requireString(params, 'sessionProposalResponse')
  const settlement = requireString(params, 'sessionSettlementRequest')
  const ttl = ttlOf(params, defaultShortcutTtlSeconds)
  subscribe(state, client, sessionTopic)
  return {
    result: true,
    afterReply: () => {
      // The response first: the dApp only subscribes to the session topic once it has read it.
      publish(state, client, { topic: pairingTopic, message: response, ttl, tag: proposalResponseTag })
      publish(state, client, { topic: sessionTopic, message: settlement, ttl, tag: settlementTag })
    },
  }
}

function subscribe(state: State, client: Client, topic: string): string {
  const id = client.subscriptions.get(topic) ?? subscriptionId(topic, client.key)
  client.subscriptions.set(topic, id)
  const subscribers = state.subscribers.get(topic) ?? new Set()
  subscribers.add(client)
  state.subscribers.set(topic, subscribers)
  return id
}

/** The id sign-client computes for itself (sha256 of topic + client id), so pushes match its own records. */
function subscriptionId(topic: string, clientKey: string): string {
  return createHash('sha256').update(`${topic}${clientKey}`).digest('hex')
}

function unsubscribe(state: State, client: Client, topic: string): void {
  client.subscriptions.delete(topic)
  removeSubscriber(state, topic, client)
}

function removeSubscriber(state: State, topic: string, client: Client): void {
  const subscribers = state.subscribers.get(topic)
  subscribers?.delete(client)
  if (subscribers?.size === 0) state.subscribers.delete(topic)
}

type Publication = { topic: string; message: string; ttl: number; tag: number; attestation?: string }

function publish(state: State, publisher: Client, publication: Publication): void {
  prune(state, publication.topic)
  const stored = store(state, publisher, publication)
  if (!stored) return
  for (const subscriber of state.subscribers.get(publication.topic) ?? []) push(state, subscriber, stored)
}

function store(state: State, publisher: Client, publication: Publication): StoredMessage | undefined {
  const messages = state.mailbox.get(publication.topic) ?? []
  // sign-client re-sends a publish it has not seen acknowledged; the relay must not deliver it twice.
  if (messages.some((stored) => stored.message === publication.message)) return undefined
  const publishedAt = Date.now()
  const ttlMs = Math.min(publication.ttl, maxTtlSeconds) * 1000
  const stored: StoredMessage = {
    topic: publication.topic,
    message: publication.message,
    publishedAt,
    tag: publication.tag,
    attestation: publication.attestation,
    expiresAt: publishedAt + ttlMs,
    deliveredTo: new Set([publisher.key]),
  }
  messages.push(stored)
  if (messages.length > maxMessagesPerTopic) messages.shift()
  state.mailbox.set(publication.topic, messages)
  return stored
}

function prune(state: State, topic: string): void {
  const messages = state.mailbox.get(topic)
  if (!messages) return
  const now = Date.now()
  const live = messages.filter((stored) => stored.expiresAt > now)
  if (live.length === 0) state.mailbox.delete(topic)
  else state.mailbox.set(topic, live)
}

function deliverPending(state: State, client: Client, topic: string): void {
  prune(state, topic)
  for (const stored of state.mailbox.get(topic) ?? []) push(state, client, stored)
}

function push(state: State, client: Client, stored: StoredMessage): void {
  const subscriptionId = client.subscriptions.get(stored.topic)
  if (!subscriptionId || stored.deliveredTo.has(client.key)) return
  if (client.socket.readyState !== WebSocket.OPEN) return
  const id = state.nextPushId++
  stored.deliveredTo.add(client.key)
  client.unacknowledged.set(id, stored)
  send(client, {
    jsonrpc: '2.0',
    id,
    method: 'irn_subscription',
    params: { id: subscriptionId, data: subscriptionData(stored) },
  })
}

function subscriptionData(stored: StoredMessage) {
  const { topic, message, publishedAt, tag, attestation } = stored
  return attestation === undefined
    ? { topic, message, publishedAt, tag }
    : { topic, message, publishedAt, tag, attestation }
}

function send(client: Client, payload: unknown): void {
  if (client.socket.readyState !== WebSocket.OPEN) return
  client.socket.send(JSON.stringify(payload))
}

function sendError(client: Client, id: JsonRpcId, error: JsonRpcError): void {
  send(client, { jsonrpc: '2.0', id, error })
}

function ttlOf(params: Params, fallback?: number): number {
  const ttl = params.ttl ?? fallback
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) {
    throw new InvalidParams('ttl must be a non-negative number of seconds')
  }
  return ttl
}

function requireTopics(params: Params, key: string): string[] {
  const topics = params[key]
  const valid = Array.isArray(topics) && topics.every(isNonEmptyString)
  if (!valid) throw new InvalidParams(`${key} must be an array of non-empty strings`)
  return topics
}

function requireString(params: Params, key: string): string {
  const value = params[key]
  if (!isNonEmptyString(value)) throw new InvalidParams(`${key} must be a non-empty string`)
  return value
}

function optionalString(params: Params, key: string): string | undefined {
  const value = params[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new InvalidParams(`${key} must be a string`)
  return value
}

function optionalTag(params: Params): number {
  const tag = params.tag
  if (tag === undefined) return 0
  if (typeof tag !== 'number' || !Number.isInteger(tag)) throw new InvalidParams('tag must be an integer')
  return tag
}

function rpcId(value: unknown): JsonRpcId | undefined {
  if (value === null || typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return value
  return undefined
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function isRecord(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
