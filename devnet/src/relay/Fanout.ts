/**
 * Who listens to which topic, and delivery of each stored message to every subscriber once per client key.
 * A push stays unacknowledged until the client answers it, so one lost with a dropped socket is sent again.
 */
import { createHash } from 'node:crypto'
import { WebSocket } from 'ws'
import * as JsonRpc from './JsonRpc.ts'
import * as Mailbox from './Mailbox.ts'

export type Client = {
  socket: WebSocket
  /** The client's did:key from its auth JWT, so a reconnect resumes its mailbox instead of starting over. */
  key: string
  /** topic → subscription id */
  subscriptions: Map<string, string>
  /** push request id → message, until the client acknowledges it */
  unacknowledged: Map<number, Mailbox.StoredMessage>
  alive: boolean
}

export type State = {
  clients: Set<Client>
  subscribers: Map<string, Set<Client>>
  mailbox: Mailbox.Mailbox
  nextPushId: number
}

export function create(): State {
  return { clients: new Set(), subscribers: new Map(), mailbox: new Map(), nextPushId: 1 }
}

export function subscribe(state: State, client: Client, topic: string): string {
  const id = client.subscriptions.get(topic) ?? subscriptionId(topic, client.key)
  client.subscriptions.set(topic, id)
  const subscribers = state.subscribers.get(topic) ?? new Set()
  subscribers.add(client)
  state.subscribers.set(topic, subscribers)
  return id
}

export function unsubscribe(state: State, client: Client, topic: string): void {
  client.subscriptions.delete(topic)
  removeSubscriber(state, topic, client)
}

/** Drops a closed client's subscriptions and hands back what it never acknowledged. */
export function detach(state: State, client: Client): void {
  for (const topic of client.subscriptions.keys()) removeSubscriber(state, topic, client)
  // Unacknowledged pushes may never have arrived; let the client's next connection pick them up again.
  for (const stored of client.unacknowledged.values()) stored.deliveredTo.delete(client.key)
  client.unacknowledged.clear()
}

export function publish(state: State, publisher: Client, publication: Mailbox.Publication): void {
  const stored = Mailbox.store(state.mailbox, publisher.key, publication)
  if (!stored) return
  for (const subscriber of state.subscribers.get(publication.topic) ?? []) push(state, subscriber, stored)
}

/** Pushes what the topic already holds to a client that has just subscribed to it. */
export function deliverPending(state: State, client: Client, topic: string): void {
  for (const stored of Mailbox.live(state.mailbox, topic)) push(state, client, stored)
}

/** Settles a push once the client has answered its `irn_subscription` request. */
export function acknowledge(client: Client, id: unknown, failed: boolean): void {
  if (typeof id !== 'number') return
  const stored = client.unacknowledged.get(id)
  if (!stored) return
  client.unacknowledged.delete(id)
  // A client that refused the push should get it again when it next subscribes.
  if (failed) stored.deliveredTo.delete(client.key)
}

/** The id sign-client computes for itself (sha256 of topic + client id), so pushes match its own records. */
function subscriptionId(topic: string, clientKey: string): string {
  return createHash('sha256').update(`${topic}${clientKey}`).digest('hex')
}

function removeSubscriber(state: State, topic: string, client: Client): void {
  const subscribers = state.subscribers.get(topic)
  subscribers?.delete(client)
  if (subscribers?.size === 0) state.subscribers.delete(topic)
}

function push(state: State, client: Client, stored: Mailbox.StoredMessage): void {
  const subscriptionId = client.subscriptions.get(stored.topic)
  if (!subscriptionId || stored.deliveredTo.has(client.key)) return
  if (client.socket.readyState !== WebSocket.OPEN) return
  const id = state.nextPushId++
  stored.deliveredTo.add(client.key)
  client.unacknowledged.set(id, stored)
  JsonRpc.send(client.socket, {
    jsonrpc: '2.0',
    id,
    method: 'irn_subscription',
    params: { id: subscriptionId, data: Mailbox.subscriptionData(stored) },
  })
}
