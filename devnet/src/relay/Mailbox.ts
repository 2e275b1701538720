/**
 * Messages kept per topic until their ttl runs out, the way the hosted relay's mailbox lets a wallet pick up a
 * proposal published before it scanned the QR code.
 */

// The hosted relay's upper bound too; without one a runaway client could fill the dev machine's memory.
const maxTtlSeconds = 30 * 24 * 60 * 60
const maxMessagesPerTopic = 1_000

export type StoredMessage = {
  topic: string
  message: string
  publishedAt: number
  tag: number
  attestation?: string
  expiresAt: number
  /** Client keys that already have it, the publisher first, so nobody gets a message twice or their own back. */
  deliveredTo: Set<string>
}

export type Publication = { topic: string; message: string; ttl: number; tag: number; attestation?: string }

/** topic → its live messages, oldest first */
export type Mailbox = Map<string, StoredMessage[]>

/** Files a publication under its topic; `undefined` when the topic already holds the same message. */
export function store(
  mailbox: Mailbox,
  publisherKey: string,
  publication: Publication,
): StoredMessage | undefined {
  prune(mailbox, publication.topic)
  const messages = mailbox.get(publication.topic) ?? []
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
    deliveredTo: new Set([publisherKey]),
  }
  messages.push(stored)
  if (messages.length > maxMessagesPerTopic) messages.shift()
  mailbox.set(publication.topic, messages)
  return stored
}

/** The topic's messages whose ttl has not run out. */
export function live(mailbox: Mailbox, topic: string): StoredMessage[] {
  prune(mailbox, topic)
  return mailbox.get(topic) ?? []
}

// Expired messages are dropped lazily on every read, and swept here so idle topics do not pile up.
export function pruneAll(mailbox: Mailbox): void {
  for (const topic of mailbox.keys()) prune(mailbox, topic)
}

/** A message as `irn_subscription` and `irn_batchFetchMessages` hand it out. */
export function subscriptionData(stored: StoredMessage) {
  const { topic, message, publishedAt, tag, attestation } = stored
  return attestation === undefined
    ? { topic, message, publishedAt, tag }
    : { topic, message, publishedAt, tag, attestation }
}

function prune(mailbox: Mailbox, topic: string): void {
  const messages = mailbox.get(topic)
  if (!messages) return
  const now = Date.now()
  const live = messages.filter((stored) => stored.expiresAt > now)
  if (live.length === 0) mailbox.delete(topic)
  else mailbox.set(topic, live)
}
