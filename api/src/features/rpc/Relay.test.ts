// The devnet by path, not as a package: the devnet's stack runs this service (as in routes.test.ts).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Hex, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Anvil from '../../../../devnet/src/Anvil.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { messages } from './messages.ts'
import { methodsOf } from './methods.ts'
import * as Relay from './Relay.ts'

const chainId = 'eip155:31339'
const methods = methodsOf(chainId) ?? new Set<string>()
/** `PUSH1 0 CALLDATALOAD PUSH1 0 RETURN`: as many zero bytes as the first word of its calldata says. */
const returnerCode = '0x6000356000f3'
const returner = '0x00000000000000000000000000000000000a1b0c'

let anvil: Anvil.Instance
/** Writes spaces for as long as the socket is open (64 MiB at most), counting what it wrote. */
let endless: Server
const pumped = { written: 0, closed: false }
/** Says its body is 64 MiB, then sends nothing. */
let declared: Server
let declaredClosed = false

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function direct(method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

beforeAll(async () => {
  anvil = await Anvil.start({ port: await closedPort(), chainId: 31339 })
  await direct('anvil_setCode', [returner, returnerCode])
  endless = createServer((request, response) => {
    request.socket.on('close', () => {
      pumped.closed = true
    })
    response.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.alloc(64 * 1024, ' ')
    const pump = () => {
      while (!response.destroyed && pumped.written < 64 * 1024 * 1024) {
        pumped.written += chunk.length
        if (!response.write(chunk)) return
      }
      response.end()
    }
    response.on('drain', pump)
    pump()
  })
  declared = createServer((request, response) => {
    request.socket.on('close', () => {
      declaredClosed = true
    })
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': 64 * 1024 * 1024 })
    response.flushHeaders()
  })
})

afterAll(async () => {
  for (const server of [endless, declared]) {
    server?.closeAllConnections()
    server?.close()
  }
  await anvil?.stop()
})

const relayTo = (rpcUrl: string, maxAnswerBytes?: number) =>
  Relay.create({ chainId, rpcUrl, methods, timeoutMs: 5_000, maxAnswerBytes })

/** An `eth_call` the node answers with `bytes` zero bytes. */
const returning = (bytes: number) => ({
  batch: false,
  calls: [
    {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'eth_call',
      params: [{ to: returner, data: toHex(bytes, { size: 32 }) }, 'latest'],
    },
  ],
})

const tooLarge = { status: 502, message: messages.answerTooLarge }

describe('Relay', () => {
  it('relays an answer as long as its cap, byte for byte, and refuses one a byte longer', async () => {
    const request = returning(100_000)
    const answer = await relayTo(anvil.rpcUrl)(request)
    expect((JSON.parse(answer) as { result: Hex }).result).toBe(`0x${'00'.repeat(100_000)}`)
    const length = Buffer.byteLength(answer)
    expect(await relayTo(anvil.rpcUrl, length)(request)).toBe(answer)
    await expect(relayTo(anvil.rpcUrl, length - 1)(request)).rejects.toMatchObject(tooLarge)
  })

  it('caps at 4 MiB unless told', async () => {
    expect(Relay.maxAnswerBytes).toBe(4 * 1024 * 1024)
    // 1.5 MiB as hex is about 3 MiB of answer, 2.5 MiB about 5.
    const under = await relayTo(anvil.rpcUrl)(returning(1.5 * 1024 * 1024))
    expect(Buffer.byteLength(under)).toBeGreaterThan(3 * 1024 * 1024)
    await expect(relayTo(anvil.rpcUrl)(returning(2.5 * 1024 * 1024))).rejects.toMatchObject(tooLarge)
  })

  it('stops reading an answer with no end at the cap, and lets go of the node', async () => {
    const url = await listen(endless)
    await expect(relayTo(url, 1024 * 1024)(returning(1))).rejects.toMatchObject(tooLarge)
    await expect.poll(() => pumped.closed).toBe(true)
    // What the socket's buffers held beyond the cap, not the 64 MiB the node was ready to send.
    expect(pumped.written).toBeLessThan(8 * 1024 * 1024)
  })

  it('refuses an answer whose stated length is over the cap without waiting for it', async () => {
    // The node states its length and never sends a byte of the body: only the length can refuse it.
    const url = await listen(declared)
    await expect(relayTo(url)(returning(1))).rejects.toMatchObject(tooLarge)
    await expect.poll(() => declaredClosed).toBe(true)
  })
})
