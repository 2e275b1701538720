import { createHash, randomUUID } from 'node:crypto'
import * as SignClientStorage from '@airlock/modal-app/sign-client-storage'
import SignClient from '@walletconnect/sign-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import * as Relay from './Relay.ts'

type Frame = Record<string, unknown>

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const chainId = 'eip155:31337'
const stepTimeoutMs = 5_000
/** Every client a test created, shut down after it so no reconnect timers outlive the test. */
const clients: SignClient[] = []

async function createClient(relayUrl: string, name: string): Promise<SignClient> {
  const client = await SignClient.init({
    projectId: 'airlock-local',
    relayUrl,
    logger: 'silent',
    telemetryEnabled: false,
    storage: SignClientStorage.memory(),
    // sign-client shares one core per storage prefix through globalThis; a fresh prefix keeps the two apart.
    customStoragePrefix: `${name}-${randomUUID()}`,
    metadata: { name, description: name, url: 'http://127.0.0.1', icons: [] },
  })
  // Verify looks proposals and requests up at verify.walletconnect.org (an iframe in browsers, fetch in Node);
  // offline each lookup can stall for its 5 s abort timer. 2.25 skips Verify entirely in its dev mode.
  expect(client.core.verify).toHaveProperty('isDevEnv')
  Object.assign(client.core.verify, { isDevEnv: true })
  return client
}

async function shutDownClient(client: SignClient): Promise<void> {
  client.core.heartbeat.stop()
  await client.core.relayer.transportClose()
}

function within<T>(promise: Promise<T>, what: string, ms = stepTimeoutMs): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

type Pair = { dapp: SignClient; wallet: SignClient; topic: string }

async function pair(relayUrl: string): Promise<Pair> {
  const dapp = await createClient(relayUrl, 'dapp')
  const wallet = await createClient(relayUrl, 'wallet')
  clients.push(dapp, wallet)
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: { chains: [chainId], methods: ['personal_sign'], events: ['accountsChanged'] },
    },
  })
  if (!uri) throw new Error('connect() returned no pairing URI')
  const proposal = new Promise<{ id: number }>((resolve) => wallet.once('session_proposal', resolve))
  await wallet.pair({ uri })
  const { id } = await within(proposal, 'session_proposal at the wallet')
  const approved = await wallet.approve({
    id,
    namespaces: {
      eip155: {
        chains: [chainId],
        accounts: [`${chainId}:${account}`],
        methods: ['personal_sign'],
        events: ['accountsChanged'],
      },
    },
  })
  const session = await within(approval(), "the dApp's approval()")
  expect(session.topic).toBe(approved.topic)
  return { dapp, wallet, topic: session.topic }
}

describe('Relay with real sign-clients', () => {
  let relay: Relay.Instance
  beforeAll(async () => {
    relay = await Relay.start({ port: 0 })
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(shutDownClient))
  })
  afterAll(async () => {
    await relay.stop()
  })

  it('pairs a dApp and a wallet through proposals published before the other side subscribes', async () => {
    const { dapp, wallet, topic } = await pair(relay.url)
    expect(dapp.session.get(topic).namespaces.eip155?.accounts).toEqual([`${chainId}:${account}`])
    expect(wallet.session.get(topic).peer.metadata.name).toBe('dapp')
  })

  it('carries a personal_sign request to the wallet and its result back', async () => {
    const { dapp, wallet, topic } = await pair(relay.url)
    wallet.once('session_request', ({ id, topic, params }) => {
      const [message] = params.request.params
      void wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: `signed:${message}` } })
    })
    const result = dapp.request({
      topic,
      chainId,
      request: { method: 'personal_sign', params: ['0x68656c6c6f', account] },
    })
    await expect(within(result, 'the personal_sign result')).resolves.toBe('signed:0x68656c6c6f')
  })

  it("delivers the wallet's rejection to the dApp as an error", async () => {
    const { dapp, wallet, topic } = await pair(relay.url)
    wallet.once('session_request', ({ id, topic }) => {
      // What getSdkError('USER_REJECTED') produces, the code wallets send for a declined request.
      void wallet.respond({
        topic,
        response: { id, jsonrpc: '2.0', error: { code: 5000, message: 'User rejected.' } },
      })
    })
    const result = dapp.request({
      topic,
      chainId,
      request: { method: 'personal_sign', params: ['0x68656c6c6f', account] },
    })
    await expect(within(result, 'the rejection')).rejects.toMatchObject({
      code: 5000,
      message: 'User rejected.',
    })
  })

  it('tells the dApp when the wallet deletes the session', async () => {
    const { dapp, wallet, topic } = await pair(relay.url)
    const deleted = new Promise<{ topic: string }>((resolve) => dapp.once('session_delete', resolve))
    await wallet.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    await expect(within(deleted, 'session_delete at the dApp')).resolves.toMatchObject({ topic })
    expect(dapp.session.keys).not.toContain(topic)
  })
})

describe('Relay idle time-out with real sign-clients', () => {
  let relay: Relay.Instance
  beforeAll(async () => {
    relay = await Relay.start({ port: 0, idleTimeoutMs: 1_000 })
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(shutDownClient))
  })
  afterAll(async () => {
    await relay.stop()
  })

  it('keeps a session working after the relay closed its quiet sockets', async () => {
    const { dapp, wallet, topic } = await pair(relay.url)
    const cycled = (client: SignClient) =>
      new Promise<void>((resolve) =>
        client.core.relayer.once('relayer_disconnect', () =>
          client.core.relayer.once('relayer_connect', resolve),
        ),
      )
    await within(Promise.all([cycled(dapp), cycled(wallet)]), 'both sockets to be closed and reopened')
    wallet.once('session_request', ({ id, topic }) => {
      void wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: 'still here' } })
    })
    const result = dapp.request({
      topic,
      chainId,
      request: { method: 'personal_sign', params: ['0x68656c6c6f', account] },
    })
    await expect(within(result, 'the personal_sign result')).resolves.toBe('still here')
  })
})

/** A bare WebSocket speaking JSON-RPC, to see exactly what the relay sends. */
type RawClient = {
  socket: WebSocket
  inbox: Frame[]
  call(method: string, params: unknown): Promise<Frame>
  sendText(text: string): void
  next(match: (frame: Frame) => boolean, what: string): Promise<Frame>
  close(): Promise<void>
}

function fakeJwt(issuer: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ iss: issuer })}.signature`
}

async function openRaw(url: string, issuer?: string): Promise<RawClient> {
  const query = issuer ? `?projectId=test&auth=${fakeJwt(issuer)}` : '?projectId=test'
  const socket = new WebSocket(`${url}/${query}`)
  const inbox: Frame[] = []
  let wake: (() => void) | undefined
  socket.on('message', (data) => {
    inbox.push(JSON.parse(String(data)))
    wake?.()
  })
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  let nextId = 1
  const next = async (match: (frame: Frame) => boolean, what: string): Promise<Frame> => {
    const deadline = Date.now() + 2_000
    for (;;) {
      const index = inbox.findIndex(match)
      const found = index >= 0 ? inbox.splice(index, 1)[0] : undefined
      if (found) return found
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error(`no frame arrived for ${what}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }
  return {
    socket,
    inbox,
    next,
    sendText: (text) => socket.send(text),
    call: (method, params) => {
      const id = nextId++
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      return next((frame) => frame.id === id && !('method' in frame), `the reply to ${method}`)
    },
    close: () =>
      new Promise((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve()
        socket.once('close', () => resolve())
        socket.close()
      }),
  }
}

const isPush = (frame: Frame) => frame.method === 'irn_subscription'
const topicOf = (seed: string) => createHash('sha256').update(`${seed}-${randomUUID()}`).digest('hex')

describe('Relay protocol', () => {
  let relay: Relay.Instance
  const raws: RawClient[] = []
  beforeAll(async () => {
    relay = await Relay.start({ port: 0 })
  })
  afterEach(async () => {
    await Promise.all(raws.splice(0).map((raw) => raw.close()))
  })
  afterAll(async () => {
    await relay.stop()
  })

  async function open(issuer?: string): Promise<RawClient> {
    const raw = await openRaw(relay.url, issuer)
    raws.push(raw)
    return raw
  }

  it('replays stored messages to later subscribers, never to their publisher', async () => {
    const topic = topicOf('replay')
    const publisher = await open('did:key:publisher')
    expect((await publisher.call('irn_subscribe', { topic })).result).toBe(
      createHash('sha256').update(`${topic}did:key:publisher`).digest('hex'),
    )
    const published = await publisher.call('irn_publish', { topic, message: 'hello', ttl: 300, tag: 1108 })
    expect(published.result).toBe(true)

    const later = await open('did:key:later')
    const { result: ids } = await later.call('irn_batchSubscribe', { topics: [topic] })
    const push = await later.next(isPush, 'the replayed message')
    expect(push.params).toEqual({
      id: Array.isArray(ids) ? ids[0] : undefined,
      data: { topic, message: 'hello', publishedAt: expect.any(Number), tag: 1108 },
    })
    later.socket.send(JSON.stringify({ jsonrpc: '2.0', id: push.id, result: true }))

    // Any echo to the publisher would have been sent before its reply to this later call.
    await publisher.call('irn_unsubscribe', { topic, id: 'unused' })
    expect(publisher.inbox.filter(isPush)).toEqual([])

    const fetcher = await open('did:key:fetcher')
    const fetched = await fetcher.call('irn_batchFetchMessages', { topics: [topic] })
    expect(fetched.result).toEqual({
      messages: [{ topic, message: 'hello', publishedAt: expect.any(Number), tag: 1108 }],
      hasMore: false,
    })
    const again = await fetcher.call('irn_batchFetchMessages', { topics: [topic] })
    expect(again.result).toEqual({ messages: [], hasMore: false })
  })

  it('pushes live messages once, redelivering unacknowledged ones when the client comes back', async () => {
    const topic = topicOf('live')
    const first = await open('did:key:returning')
    await first.call('irn_subscribe', { topic })
    const sender = await open()
    await sender.call('irn_publish', { topic, message: 'live', ttl: 300 })
    await sender.call('irn_publish', { topic, message: 'live', ttl: 300 })
    const push = await first.next(isPush, 'the live message')
    expect(push.params).toMatchObject({ data: { message: 'live', tag: 0 } })
    await first.call('irn_subscribe', { topic: topicOf('sync') })
    expect(first.inbox.filter(isPush)).toEqual([])
    await first.close()

    const back = await open('did:key:returning')
    await back.call('irn_subscribe', { topic })
    await expect(back.next(isPush, 'the unacknowledged message')).resolves.toMatchObject({
      params: { data: { message: 'live' } },
    })
  })

  it('forgets messages once their ttl has run out', async () => {
    const topic = topicOf('ttl')
    const sender = await open()
    await sender.call('irn_publish', { topic, message: 'short-lived', ttl: 1 })
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const reader = await open()
    expect((await reader.call('irn_batchFetchMessages', { topics: [topic] })).result).toEqual({
      messages: [],
      hasMore: false,
    })
  })

  it('answers malformed frames with JSON-RPC errors and keeps the connection usable', async () => {
    const raw = await open()
    raw.sendText('not json')
    await expect(raw.next((f) => f.id === null, 'the parse error')).resolves.toMatchObject({
      error: { code: -32700 },
    })
    raw.sendText('[1, 2]')
    await expect(raw.next((f) => f.id === null, 'the batch error')).resolves.toMatchObject({
      error: { code: -32600 },
    })
    raw.sendText(JSON.stringify({ jsonrpc: '2.0', id: 7, params: {} }))
    await expect(raw.next((f) => f.id === 7, 'the missing-method error')).resolves.toMatchObject({
      error: { code: -32600 },
    })
    await expect(raw.call('irn_teleport', { topic: 'x' })).resolves.toMatchObject({ error: { code: -32601 } })
    await expect(raw.call('irn_subscribe', { topic: 42 })).resolves.toMatchObject({ error: { code: -32602 } })
    await expect(raw.call('irn_publish', { topic: 'x', message: 'm' })).resolves.toMatchObject({
      error: { code: -32602 },
    })
    await expect(raw.call('irn_subscribe', 'topic')).resolves.toMatchObject({ error: { code: -32602 } })
    expect(raw.socket.readyState).toBe(WebSocket.OPEN)
    await expect(raw.call('irn_subscribe', { topic: topicOf('after') })).resolves.toMatchObject({
      result: expect.any(String),
    })
  })
})

describe('Relay.start', () => {
  it('stops by closing every socket and the server, leaving no open handles', async () => {
    const handles = () => process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap')
    const before = handles()
    const relay = await Relay.start({ port: 0 })
    expect(relay.url).toBe(`ws://127.0.0.1:${relay.port}`)
    const raw = await openRaw(relay.url)
    await raw.call('irn_subscribe', { topic: topicOf('stop') })
    const closed = new Promise<number>((resolve) => raw.socket.once('close', resolve))
    await Promise.all([relay.stop(), relay.stop()])
    await expect(within(closed, 'the socket to close', 2_000)).resolves.toBe(1001)
    expect(handles().sort()).toEqual(before.sort())
    await expect(openRaw(relay.url)).rejects.toThrow(/ECONNREFUSED/)
  })

  it('refuses a port that is already taken', async () => {
    const relay = await Relay.start({ port: 0 })
    try {
      await expect(Relay.start({ port: relay.port })).rejects.toThrow(/already in use/)
    } finally {
      await relay.stop()
    }
  })
})
