/**
 * The relay's JSON-RPC methods: the `irn_*` calls every WalletConnect client makes, and the `wc_*` shortcuts
 * @walletconnect/sign-client 2.25 uses to pair in one round trip.
 */
import * as Fanout from './Fanout.ts'
import * as JsonRpc from './JsonRpc.ts'
import * as Mailbox from './Mailbox.ts'

// sign-client 2.25 sends no ttl for the `wc_*` shortcuts' payloads and relies on the relay's 5-minute default.
const defaultShortcutTtlSeconds = 5 * 60
// The tags the real relay gives the messages it publishes on a client's behalf (sign-client's wc_sessionPropose
// request, its response and wc_sessionSettle); clients ignore them, but logs and tests read the same numbers.
const proposalTag = 1100
const proposalResponseTag = 1101
const settlementTag = 1102

type Outcome = { result: unknown; afterReply?: () => void }
type Method = (state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params) => Outcome

/**
 * Runs one request. `afterReply` holds the deliveries the request causes: the caller runs it once the reply
 * is sent, so a client always reads the answer to its call before the pushes it triggered.
 */
export function run(
  state: Fanout.State,
  client: Fanout.Client,
  request: JsonRpc.Request,
): { reply: JsonRpc.Reply; afterReply?: () => void } {
  const method = methods.get(request.method)
  if (!method) return { reply: { error: JsonRpc.methodNotFound } }
  if (!JsonRpc.isRecord(request.params)) {
    return { reply: { error: JsonRpc.invalidParams('params must be an object') } }
  }
  try {
    const { result, afterReply } = method(state, client, request.params)
    return { reply: { result }, afterReply }
  } catch (error) {
    if (error instanceof JsonRpc.InvalidParams)
      return { reply: { error: JsonRpc.invalidParams(error.message) } }
    // One bad request must not take down the relay every other client is using.
    return { reply: { error: JsonRpc.internalError } }
  }
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

function subscribeMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  const topic = JsonRpc.requireString(params, 'topic')
  const id = Fanout.subscribe(state, client, topic)
  return { result: id, afterReply: () => Fanout.deliverPending(state, client, topic) }
}

function batchSubscribeMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  const topics = JsonRpc.requireTopics(params, 'topics')
  const ids = topics.map((topic) => Fanout.subscribe(state, client, topic))
  const afterReply = () => {
    for (const topic of topics) Fanout.deliverPending(state, client, topic)
  }
  return { result: ids, afterReply }
}

function unsubscribeMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  Fanout.unsubscribe(state, client, JsonRpc.requireString(params, 'topic'))
  return { result: true }
}

function batchUnsubscribeMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  const subscriptions = params.subscriptions
  if (!Array.isArray(subscriptions)) throw new JsonRpc.InvalidParams('subscriptions must be an array')
  const topics = subscriptions.map((entry: unknown) => {
    if (!JsonRpc.isRecord(entry)) throw new JsonRpc.InvalidParams('each subscription must be an object')
    return JsonRpc.requireString(entry, 'topic')
  })
  for (const topic of topics) Fanout.unsubscribe(state, client, topic)
  return { result: true }
}

function publishMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  const topic = JsonRpc.requireString(params, 'topic')
  const message = JsonRpc.requireString(params, 'message')
  const ttl = JsonRpc.ttlOf(params)
  const tag = JsonRpc.optionalTag(params)
  const attestation = JsonRpc.optionalString(params, 'attestation')
  return {
    result: true,
    afterReply: () => Fanout.publish(state, client, { topic, message, ttl, tag, attestation }),
  }
}

function batchFetchMessagesMethod(
  state: Fanout.State,
  client: Fanout.Client,
  params: JsonRpc.Params,
): Outcome {
  const topics = JsonRpc.requireTopics(params, 'topics')
  const messages = topics.flatMap((topic) => {
    const live = Mailbox.live(state.mailbox, topic)
    const waiting = live.filter((stored) => !stored.deliveredTo.has(client.key))
    for (const stored of waiting) stored.deliveredTo.add(client.key)
    return waiting.map(Mailbox.subscriptionData)
  })
  return { result: { messages, hasMore: false } }
}

/**
 * sign-client 2.25 publishes a session proposal through this one call instead of `irn_publish`: the relay
 * subscribes the dApp to the pairing topic (so the wallet's answer reaches it) and files the proposal there.
 */
function proposeSessionMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  const pairingTopic = JsonRpc.requireString(params, 'pairingTopic')
  const message = JsonRpc.requireString(params, 'sessionProposal')
  const ttl = JsonRpc.ttlOf(params, defaultShortcutTtlSeconds)
  const attestation = JsonRpc.optionalString(params, 'attestation')
  Fanout.subscribe(state, client, pairingTopic)
  return {
    result: true,
    afterReply: () =>
      Fanout.publish(state, client, { topic: pairingTopic, message, ttl, tag: proposalTag, attestation }),
  }
}

/**
 * The wallet's approval in one call: the proposal response goes to the pairing topic, the settlement request
 * to the new session topic, and the wallet is subscribed to the session topic here because sign-client
 * 2.25 records that subscription locally (`skipSubscribe`) without ever sending `irn_subscribe` for it.
 */
function approveSessionMethod(state: Fanout.State, client: Fanout.Client, params: JsonRpc.Params): Outcome {
  const pairingTopic = JsonRpc.requireString(params, 'pairingTopic')
  const sessionTopic = JsonRpc.requireString(params, 'sessionTopic')
  const response = JsonRpc.requireString(params, 'sessionProposalResponse')
  const settlement = JsonRpc.requireString(params, 'sessionSettlementRequest')
  const ttl = JsonRpc.ttlOf(params, defaultShortcutTtlSeconds)
  Fanout.subscribe(state, client, sessionTopic)
  return {
    result: true,
    afterReply: () => {
      // The response first: the dApp only subscribes to the session topic once it has read it.
      Fanout.publish(state, client, { topic: pairingTopic, message: response, ttl, tag: proposalResponseTag })
      Fanout.publish(state, client, { topic: sessionTopic, message: settlement, ttl, tag: settlementTag })
    },
  }
}
