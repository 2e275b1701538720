import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as Api from './Api.ts'
import * as Retry from './Retry.ts'

/** One scripted answer: a status with headers and a JSON body, a dropped connection, or no answer at all. */
type Step = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop' | 'stall'

// A real HTTP server on a free loopback port, answering each request with the next step of its script.
let server: Server
let base: string
let script: Step[] = []
const seen: { method: string; path: string }[] = []
const stalled: ServerResponse[] = []

function answer(request: IncomingMessage, response: ServerResponse) {
  seen.push({ method: request.method ?? '', path: new URL(request.url ?? '/', base).pathname })
  request.resume()
  const step = script.shift() ?? { status: 200, body: {} }
  if (step === 'drop') return response.socket?.destroy()
  if (step === 'stall') return void stalled.push(response)
  response.writeHead(step.status, { 'Content-Type': 'application/json', ...step.headers })
  response.end(JSON.stringify(step.body ?? { message: 'scripted' }))
}

beforeAll(async () => {
  server = createServer(answer)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const response of stalled) response.socket?.destroy()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  script = []
  seen.length = 0
})

/** A clock that records the waits asked for instead of waiting them. */
function recorder() {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => void waits.push(ms) }
}

const call = (when: Retry.When, options: Retry.RetryOptions = {}) =>
  Retry.fetch(fetch, new URL('/thing', base), {}, when, options)

describe('Retry.fetch', () => {
  it('waits as long as Retry-After says after a 429, then takes the answer', async () => {
    script = [
      { status: 429, headers: { 'Retry-After': '2' } },
      { status: 200, body: { ok: true } },
    ]
    const clock = recorder()
    const response = await call('failed', clock)
    expect(await response.json()).toEqual({ ok: true })
    expect(clock.waits).toEqual([2_000])
    expect(seen).toHaveLength(2)
  })

  it('backs off 150 ms then 300 ms without Retry-After, and gives the last answer after 3 attempts', async () => {
    script = [{ status: 503 }, { status: 502 }, { status: 500 }, { status: 200 }]
    const clock = recorder()
    expect((await call('failed', clock)).status).toBe(500)
    expect(clock.waits).toEqual([150, 300])
    expect(seen).toHaveLength(3)
  })

  it('reads Retry-After as an HTTP date too', async () => {
    const now = Date.UTC(2026, 0, 1)
    script = [
      { status: 503, headers: { 'Retry-After': new Date(now + 3_000).toUTCString() } },
      { status: 200 },
    ]
    const clock = recorder()
    expect((await call('failed', { ...clock, now: () => now })).status).toBe(200)
    expect(clock.waits).toEqual([3_000])
  })

  it('gives up at once rather than wait longer than maxWaitMs', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '60' } }, { status: 200 }]
    const clock = recorder()
    expect((await call('failed', clock)).status).toBe(429)
    expect(clock.waits).toEqual([])
    expect(seen).toHaveLength(1)
  })

  it.each([400, 403, 404, 409, 413])('does not retry %i, which another try cannot change', async (status) => {
    script = [{ status }, { status: 200 }]
    expect((await call('failed', recorder())).status).toBe(status)
    expect(seen).toHaveLength(1)
  })

  it('tries again when the connection drops or the answer takes too long', async () => {
    script = ['drop', 'stall', { status: 200, body: { ok: true } }]
    const clock = recorder()
    const response = await call('failed', { ...clock, timeoutMs: 300 })
    expect(await response.json()).toEqual({ ok: true })
    expect(clock.waits).toEqual([150, 300])
    expect(seen).toHaveLength(3)
  })

  it('rejects with the last failure when no attempt is answered', async () => {
    script = ['drop', 'drop', 'drop']
    await expect(call('failed', recorder())).rejects.toBeInstanceOf(TypeError)
    expect(seen).toHaveLength(3)
  })

  it('repeats a call that is not safe to repeat only after a 429', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '1' } }, { status: 200 }]
    expect((await call('refused', recorder())).status).toBe(200)
    script = [{ status: 503 }, { status: 200 }]
    expect((await call('refused', recorder())).status).toBe(503)
    script = ['drop', { status: 200 }]
    await expect(call('refused', recorder())).rejects.toBeInstanceOf(TypeError)
    expect(seen).toHaveLength(4)
  })

  it('waits for real when no clock is given', async () => {
    script = [{ status: 503 }, { status: 200 }]
    const started = performance.now()
    expect((await call('failed', { baseMs: 50 })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(45)
  })
})

describe('API client retries', () => {
  const client = (clock = recorder()) =>
    Api.create({ baseUrl: base, projectId: 'demo', retry: { sleep: clock.sleep } })

  it('reads the registry through a 429 and a 503', async () => {
    script = [
      { status: 429, headers: { 'Retry-After': '1' } },
      { status: 503 },
      { status: 200, body: { count: 0, data: [] } },
    ]
    const clock = recorder()
    expect(await client(clock).wallets({ page: 1, entries: 40 })).toEqual({ count: 0, data: [] })
    expect(clock.waits).toEqual([1_000, 300])
  })

  it('asks again for a nonce, but signs in again only after a 429', async () => {
    script = [{ status: 502 }, { status: 200, body: { nonce: 'n0nce123' } }]
    expect(await client().nonce()).toBe('n0nce123')
    script = [{ status: 503, body: { message: 'The request took too long' } }]
    await expect(client().signIn('message', '0x00')).rejects.toThrow('HTTP status code: 503')
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/siwx/nonce',
      'POST /v1/siwx/nonce',
      'POST /v1/sessions',
    ])
  })
})
