/**
 * The API's documented values (docs/behaviour.md §8), written out as literals and read through what the service answers: the refusal
 * texts clients match on (docs/behaviour.md §5, §8), the 30 s balance cache and the 5 min identity cache (docs/behaviour.md §9). A
 * change to any of them turns this red, so it can only be a deliberate change to this file too.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from './Database.ts'
import * as Projects from './features/projects/Projects.ts'
import { closedPort } from './internal/closedPort.ts'
import { calls, configOf, ether, modalOrigin, shop } from './internal/testApi.ts'
import { databases } from './internal/testing.ts'
import * as Service from './Service.ts'

const holder = '0x1000000000000000000000000000000000000001'

/**
 * A chain's JSON-RPC endpoint that answers `eth_getBalance` with whatever `wei` holds now, and counts the
 * reads: the balance route's only call for a chain without tokens.
 */
async function rpc() {
  const state = { wei: 1n, reads: 0 }
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      const answer =
        method === 'eth_getBalance'
          ? { jsonrpc: '2.0', id, result: `0x${state.wei.toString(16)}` }
          : { jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } }
      if (method === 'eth_getBalance') state.reads++
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { state, url, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe.each(databases())('the API’s documented values (docs/behaviour.md) on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let chain: Awaited<ReturnType<typeof rpc>>
  let time = Date.UTC(2026, 10, 22)
  const lookups: string[] = []
  const { json } = calls(() => api)

  beforeAll(async () => {
    db = await open()
    chain = await rpc()
    await Projects.add(db, 'demo', ['http://localhost:*', shop])
    await Projects.setAnalytics(db, 'demo', true)
    const dead = `http://127.0.0.1:${await closedPort()}`
    const config = configOf([
      { id: 'eip155:31337', name: 'A', rpcUrl: chain.url, nativeCurrency: ether },
      { id: 'eip155:999', name: 'Dead', rpcUrl: dead, nativeCurrency: ether },
    ])
    const identity = {
      lookup: async (address: string) => {
        lookups.push(address)
        return { name: `name-${lookups.length}`, avatar: null }
      },
    }
    api = Service.create({ db, config, identity, now: () => time }).api
  })
  afterAll(async () => {
    await chain?.close()
    await db?.close()
  })

  describe('refusals, word for word', () => {
    it("403 'Project id not configured' for a project the API does not know, or none", async () => {
      const refused = { status: 403, body: { message: 'Project id not configured' } }
      expect(await json('/v1/supported-chains?projectId=nope')).toEqual(refused)
      expect(await json(`/v1/account/${holder}/balance?projectId=nope&chainId=eip155:31337`)).toEqual(refused)
      expect(await json('/getAnalyticsConfig?projectId=nope')).toEqual(refused)
    })

    it("403 'Invalid App Configuration' for analytics about a page the project does not allow", async () => {
      const event = {
        eventId: crypto.randomUUID(),
        url: 'https://evil.example/',
        domain: 'evil.example',
        timestamp: time,
        props: { type: 'track', event: 'CONNECT_SUCCESS', properties: {} },
      }
      const answer = await json('/e?projectId=demo&st=airlock&sv=0.1.0', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: modalOrigin },
        body: JSON.stringify(event),
      })
      expect(answer).toEqual({ status: 403, body: { message: 'Invalid App Configuration' } })
    })

    it("404 'Not found', 400 'The body is not valid JSON', 413 'The body is too large'", async () => {
      expect(await json('/v1/nothing-here?projectId=demo')).toEqual({
        status: 404,
        body: { message: 'Not found' },
      })
      const post = (body: string) =>
        json('/e?projectId=demo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
      expect(await post('{not json')).toEqual({
        status: 400,
        body: { message: 'The body is not valid JSON' },
      })
      expect(await post(`"${'x'.repeat(64 * 1024)}"`)).toEqual({
        status: 413,
        body: { message: 'The body is too large' },
      })
    })

    it("names what is wrong with a balance request: 'Unsupported chain: …', 'Invalid EVM address', 502 'The RPC of … is unavailable'", async () => {
      const balance = (address: string, chainId: string) =>
        json(`/v1/account/${address}/balance?projectId=demo&chainId=${chainId}`)
      expect(await balance(holder, 'eip155:1')).toEqual({
        status: 400,
        body: { message: 'Unsupported chain: eip155:1' },
      })
      expect(await balance('0x123', 'eip155:31337')).toEqual({
        status: 400,
        body: { message: 'Invalid EVM address' },
      })
      expect((await balance(holder, 'eip155')).body.message).toContain('Invalid CAIP-2 network id')
      expect(await balance(holder, 'eip155:999')).toEqual({
        status: 502,
        body: { message: 'The RPC of eip155:999 is unavailable' },
      })
    })

    it("400 'Network not supported for Swaps' and 'Network not supported for Gas Price' on a chain without swaps", async () => {
      expect(await json('/v1/convert/tokens?projectId=demo&chainId=eip155:31337')).toEqual({
        status: 400,
        body: { message: 'Network not supported for Swaps' },
      })
      expect(await json('/v1/convert/gas-price?projectId=demo&chainId=eip155:31337')).toEqual({
        status: 400,
        body: { message: 'Network not supported for Gas Price' },
      })
    })
  })

  describe('caches', () => {
    const numeric = async () => {
      const { body } = await json(`/v1/account/${holder}/balance?projectId=demo&chainId=eip155:31337`)
      return (body.balances as { quantity: { numeric: string } }[])[0]?.quantity.numeric
    }

    it('keeps a balance 30 s: still cached at 29.999 s, read again at 30 s', async () => {
      chain.state.wei = 10n ** 18n
      expect(await numeric()).toBe('1')
      const reads = chain.state.reads
      chain.state.wei = 2n * 10n ** 18n
      time += 29_999
      expect(await numeric()).toBe('1')
      expect(chain.state.reads).toBe(reads)
      time += 1
      expect(await numeric()).toBe('2')
      expect(chain.state.reads).toBe(reads + 1)
    })

    it('keeps an identity 5 minutes: still cached at 4:59.999, looked up again at 5:00', async () => {
      const identity = async () =>
        (await json(`/v1/identity/${holder}?projectId=demo`)).body as { name: string | null }
      const first = (await identity()).name
      time += 299_999
      expect((await identity()).name).toBe(first)
      time += 1
      expect((await identity()).name).not.toBe(first)
      expect(lookups).toEqual([holder, holder])
    })
  })
})
