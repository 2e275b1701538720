import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as S from '@airlock/bridge-protocol/Shape'
import { afterEach, describe, expect, it } from 'vitest'
import { call } from './Solana.ts'

type Reply = { status: number; headers?: Record<string, string>; body?: unknown }

/** A JSON-RPC server that answers each call with the next reply, and records when each came. */
async function server(replies: Reply[]) {
  const times: number[] = []
  const http: Server = createServer((_, response) => {
    times.push(Date.now())
    const reply = replies.shift() ?? { status: 200, body: { jsonrpc: '2.0', id: 1, result: 7 } }
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
    response.end(JSON.stringify(reply.body ?? {}))
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  running.push(http)
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, times }
}
const running: Server[] = []
afterEach(() => {
  for (const http of running.splice(0)) http.close()
})
const number = S.number()
const ok = { status: 200, body: { jsonrpc: '2.0', id: 1, result: 7 } }

describe("the Solana reader's calls", () => {
  it('try again after a retry status, waiting what Retry-After says', async () => {
    const { url, times } = await server([{ status: 429, headers: { 'retry-after': '1' } }, ok])
    expect(await call(url, 'getSlot', [], number)).toBe(7)
    expect(times).toHaveLength(2)
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(950)
  })

  it('back off 150 ms, then 300 ms, and give up after 3 attempts', async () => {
    const { url, times } = await server([{ status: 503 }, { status: 502 }, { status: 500 }, ok])
    await expect(call(url, 'getSlot', [], number)).rejects.toThrow('getSlot: HTTP 500')
    expect(times).toHaveLength(3)
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(140)
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(290)
  })

  it('retry an internal JSON-RPC error, but not a refusal of the request', async () => {
    const internal = await server([
      { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'busy' } } },
      ok,
    ])
    expect(await call(internal.url, 'getSlot', [], number)).toBe(7)
    const refused = await server([
      { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid param' } } },
      ok,
    ])
    await expect(call(refused.url, 'getSlot', [], number)).rejects.toThrow('Invalid param')
    expect(refused.times).toHaveLength(1)
    const bad = await server([{ status: 400 }, ok])
    await expect(call(bad.url, 'getSlot', [], number)).rejects.toThrow('HTTP 400')
    expect(bad.times).toHaveLength(1)
  })

  it('refuse an answer of the wrong shape at once', async () => {
    const { url, times } = await server([{ status: 200, body: { jsonrpc: '2.0', id: 1, result: 'seven' } }])
    await expect(call(url, 'getSlot', [], number)).rejects.toThrow('getSlot')
    expect(times).toHaveLength(1)
  })
})
