import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Config from '../Config.ts'
import type * as Database from '../Database.ts'
import * as Projects from '../features/projects/Projects.ts'
import { memoryDatabase } from '../internal/memoryDatabase.ts'
import { configOf, ether, modalOrigin } from '../internal/testApi.ts'
import * as Service from '../Service.ts'
import { messages } from './errors.ts'
import * as Limits from './limits.ts'

type Answer = { status: number; headers: IncomingHttpHeaders; body: { message?: string } }
type Call = {
  from?: string
  method?: string
  headers?: Record<string, string>
  /** Written in chunks, without Content-Length. */
  chunks?: string[]
}

/** A plain HTTP call, so the source address, the headers and the body's framing are the test's to choose. */
function call(base: string, path: string, options: Call = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(path, base),
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.from, agent: false },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: JSON.parse(text || '{}'),
          }),
        )
      },
    )
    req.on('error', reject)
    for (const chunk of options.chunks ?? []) req.write(chunk)
    req.end()
  })
}

/** A chain RPC that takes connections and never answers: a handler waiting on it runs until abandoned. */
async function silentRpc(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const slowBalance = `/v1/account/${holder}/balance?projectId=demo&chainId=eip155:999&forceUpdate=true`

let db: Database.Database
let rpc: Awaited<ReturnType<typeof silentRpc>>
const running: Service.Running[] = []
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  await Projects.add(db, 'other', [])
  rpc = await silentRpc()
})
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()))
  await rpc?.close()
  await db?.close()
})

/**
 * The API with these limits, listening on a free loopback port; its URL. Its budgets refill on a clock that
 * stands still: what they hold is what the test spent, however long the machine took.
 */
async function serve(limits: NonNullable<Config.Config['limits']>, node = rpc): Promise<string> {
  const chains = [{ id: 'eip155:999', name: 'Silent', rpcUrl: node.url, nativeCurrency: ether }]
  const now = () => Date.UTC(2026, 0, 1)
  const server = await Service.listen(Service.create({ db, config: { ...configOf(chains), limits }, now }), {
    apiPort: 0,
  })
  running.push(server)
  return server.apiUrl
}

describe('rate limits', () => {
  it('refuses a client over its budget with 429, a JSON message and Retry-After the modal can read', async () => {
    const api = await serve({ perClient: { burst: 3, perSecond: 0.5 } })
    const headers = { Origin: modalOrigin }
    for (let i = 0; i < 3; i++) expect((await call(api, '/health', { headers })).status).toBe(200)
    const refused = await call(api, '/v1/supported-chains?projectId=demo', { headers })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ message: messages.tooManyRequests })
    expect(refused.headers['retry-after']).toBe('2')
    expect(refused.headers['access-control-allow-origin']).toBe(modalOrigin)
    expect(refused.headers['access-control-expose-headers']).toBe('Retry-After')
  })

  it('counts each client address on its own', async () => {
    const api = await serve({ perClient: { burst: 1, perSecond: 0.001 } })
    expect((await call(api, '/health', { from: '127.0.0.1' })).status).toBe(200)
    expect((await call(api, '/health', { from: '127.0.0.1' })).status).toBe(429)
    expect((await call(api, '/health', { from: '127.0.0.2' })).status).toBe(200)
  })

  it('ignores X-Forwarded-For unless proxies of ours are configured, then reads the one they wrote', async () => {
    const direct = await serve({ perClient: { burst: 1, perSecond: 0.001 } })
    const forwarded = (value: string) => ({ headers: { 'X-Forwarded-For': value } })
    expect((await call(direct, '/health', forwarded('198.51.100.1'))).status).toBe(200)
    expect((await call(direct, '/health', forwarded('198.51.100.2'))).status).toBe(429)

    const proxied = await serve({ perClient: { burst: 1, perSecond: 0.001 }, trustedProxies: 1 })
    expect((await call(proxied, '/health', forwarded('6.6.6.6, 198.51.100.1'))).status).toBe(200)
    // What the client wrote left of our proxy's entry changes nothing.
    expect((await call(proxied, '/health', forwarded('7.7.7.7, 198.51.100.1'))).status).toBe(429)
    expect((await call(proxied, '/health', forwarded('198.51.100.2'))).status).toBe(200)
  })

  it("refuses a project over its budget whoever calls, and leaves other projects' alone", async () => {
    const api = await serve({ perProject: { burst: 2, perSecond: 0.001 } })
    const chains = (project: string, from: string) =>
      call(api, `/v1/supported-chains?projectId=${project}`, { from })
    expect((await chains('demo', '127.0.0.1')).status).toBe(200)
    expect((await chains('demo', '127.0.0.2')).status).toBe(200)
    const refused = await chains('demo', '127.0.0.3')
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('1000')
    expect((await chains('other', '127.0.0.3')).status).toBe(200)
    // A made-up project holds no budget: it is refused as unknown, however often it is named.
    for (let i = 0; i < 3; i++) expect((await chains('nope', '127.0.0.4')).status).toBe(403)
  })

  it('bounds what a client holds in flight, and frees the slot when the answer is out', async () => {
    // The two slow requests wait on a node of their own until the test lets them fail.
    const node = await silentRpc()
    const api = await serve({ perClient: { inFlight: 2 } }, node)
    const slow = [call(api, slowBalance), call(api, slowBalance)]
    await expect.poll(async () => (await call(api, '/health')).status).toBe(429)
    const third = await call(api, '/health')
    expect(third.headers['retry-after']).toBe('1')
    await node.close()
    expect((await Promise.all(slow)).map((answer) => answer.status)).toEqual([502, 502])
    expect((await call(api, '/health')).status).toBe(200)
  })
})

describe('request time-out', () => {
  it('answers a request still running after the time-out with 503 and a JSON message', async () => {
    const api = await serve({ requestTimeoutMs: 300 })
    // The chain's node never answers: only the time-out can.
    const answer = await call(api, slowBalance)
    expect(answer).toMatchObject({ status: 503, body: { message: messages.timedOut } })
    // The process is not stuck behind the abandoned work.
    expect((await call(api, '/health')).status).toBe(200)
  })
})

describe('a chain under a flood of balance reads', () => {
  it('reads it 32 at a time, lines up 256 more, and answers the rest 503 with Retry-After at once', async () => {
    const chains = [{ id: 'eip155:999', name: 'Silent', rpcUrl: rpc.url, nativeCurrency: ether }]
    const roomy = { burst: 1_000, perSecond: 1_000, inFlight: 1_000 }
    const api = Service.create({
      db,
      config: { ...configOf(chains), limits: { perClient: roomy, perProject: roomy } },
      now: () => Date.UTC(2026, 0, 1),
    }).api
    // Each a different address, so no two share a read.
    const balance = (i: number) =>
      api.request(
        `/v1/account/0x${i.toString(16).padStart(40, '0')}/balance?projectId=demo&chainId=eip155:999&forceUpdate=true`,
      )
    // The node never answers: 32 reads are under way and 256 wait, so these find no place.
    const held = Array.from({ length: 32 + 256 }, (_, i) => balance(i + 1))
    const refused = await Promise.all([balance(1_000), balance(1_001)])
    for (const answer of refused) {
      expect(answer.status).toBe(503)
      expect(answer.headers.get('retry-after')).toBe('1')
      expect(await answer.json()).toEqual({ message: messages.rpcBusy('eip155:999') })
    }
    // The ones in line are refused alike once they waited their time, and not sent to the node.
    const waited = await Promise.all(held.slice(32))
    expect(new Set(waited.map((answer) => answer.status))).toEqual(new Set([503]))
  })
})

describe('body size', () => {
  const event = (padding: number) =>
    JSON.stringify({
      eventId: 'e',
      url: 'http://localhost:5173',
      domain: 'x',
      timestamp: 1,
      props: { pad: 'x'.repeat(padding) },
    })

  it('refuses a body over 64 KiB with 413, whether it says its length or not', async () => {
    const api = await serve({})
    const json = { 'Content-Type': 'application/json' }
    const sized = await call(api, '/e?projectId=demo', {
      method: 'POST',
      headers: { ...json, 'Content-Length': String(event(70_000).length) },
      chunks: [event(70_000)],
    })
    expect(sized).toMatchObject({ status: 413, body: { message: messages.tooLarge } })
    const body = event(70_000)
    const chunked = await call(api, '/e?projectId=demo', {
      method: 'POST',
      headers: { ...json, 'Transfer-Encoding': 'chunked' },
      chunks: [body.slice(0, 30_000), body.slice(30_000, 60_000), body.slice(60_000)],
    })
    expect(chunked).toMatchObject({ status: 413, body: { message: messages.tooLarge } })
    // Just under the cap, in chunks too, the route itself answers.
    const small = event(1_000)
    const accepted = await call(api, '/e?projectId=demo', {
      method: 'POST',
      headers: { ...json, 'Transfer-Encoding': 'chunked' },
      chunks: [small.slice(0, 500), small.slice(500)],
    })
    expect(accepted.status).not.toBe(413)
  })

  it('goes on answering on a connection whose refused body it never read', async () => {
    const api = await serve({})
    // One kept-alive socket: the second request waits for the first's unread body to be discarded.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; port: number | undefined }>((resolve, reject) => {
        const req = httpRequest(new URL(path, api), {
          method,
          agent,
          headers: { 'Content-Type': 'application/json' },
        })
        req.on('response', (response) => {
          response.resume()
          response.on('end', () => resolve({ status: response.statusCode ?? 0, port: req.socket?.localPort }))
        })
        req.on('error', reject)
        req.end(body)
      })
    const refused = await send('POST', '/e?projectId=demo', event(70_000))
    const next = await send('GET', '/health')
    agent.destroy()
    expect(refused.status).toBe(413)
    expect(next).toEqual({ status: 200, port: refused.port })
  })
})

describe('client addresses', () => {
  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(Limits.clientKey('203.0.113.7')).toBe('203.0.113.7')
    expect(Limits.clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(Limits.clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(Limits.clientKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64')
    expect(Limits.clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(Limits.clientKey('::1')).toBe('0:0:0:0::/64')
    expect(Limits.clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(Limits.clientKey('64:ff9b:1:2::192.0.2.1')).toBe('64:ff9b:1:2::/64')
  })

  it('fills what the configuration leaves out with the defaults', () => {
    expect(Limits.resolve(undefined)).toEqual(Limits.defaults)
    expect(Limits.resolve({ perClient: { perSecond: 5 } }).perClient).toEqual({
      ...Limits.defaults.perClient,
      perSecond: 5,
    })
  })
})
