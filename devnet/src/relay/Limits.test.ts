import { createHash, randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import * as Relay from '../Relay.ts'

type Opened = { socket: WebSocket; closed: Promise<{ code: number; at: number }> }

const relays: Relay.Instance[] = []
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate()
  await Promise.all(relays.splice(0).map((relay) => relay.stop()))
})

async function relayWith(options: Relay.StartOptions): Promise<Relay.Instance> {
  const relay = await Relay.start({ port: 0, ...options })
  relays.push(relay)
  return relay
}

/** Opens a socket (from `localAddress` when given); rejects with the HTTP status of a refused upgrade. */
function open(url: string, localAddress?: string): Promise<Opened> {
  const socket = new WebSocket(`${url}/?projectId=test`, { localAddress })
  sockets.push(socket)
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    socket.once('close', (code) => resolve({ code, at: performance.now() })),
  )
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, closed }))
    socket.once('unexpected-response', (_, response) => {
      reject(new Error(`HTTP ${response.statusCode}`))
      socket.terminate()
    })
    socket.once('error', reject)
  })
}

function call(socket: WebSocket, method: string, params: unknown): Promise<Record<string, unknown>> {
  const id = Math.floor(Math.random() * 1e9)
  return new Promise((resolve) => {
    const onMessage = (data: unknown) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>
      if (frame.id !== id) return
      socket.off('message', onMessage)
      resolve(frame)
    }
    socket.on('message', onMessage)
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
  })
}

const topic = () => createHash('sha256').update(randomUUID()).digest('hex')

describe('Relay limits', () => {
  it('refuses one socket over the per-address cap with HTTP 429, and takes one again after a close', async () => {
    const relay = await relayWith({ maxSocketsPerAddress: 3 })
    const held = await Promise.all([open(relay.url), open(relay.url), open(relay.url)])
    await expect(open(relay.url)).rejects.toThrow('HTTP 429')
    // Another address has places of its own.
    const other = await open(relay.url, '127.0.0.2')
    expect((await call(other.socket, 'irn_subscribe', { topic: topic() })).result).toEqual(expect.any(String))

    held[0]?.socket.close()
    await held[0]?.closed
    await expect.poll(() => open(relay.url).then(() => 'open', String)).toBe('open')
    await expect(open(relay.url)).rejects.toThrow('HTTP 429')
  })

  it('closes a socket whose frame is over 1 MiB with 1009, and the others keep working', async () => {
    const relay = await relayWith({})
    const big = await open(relay.url)
    const bystander = await open(relay.url)
    const nearly = 'x'.repeat(Relay.maxPayloadBytes - 1_000)
    const published = await call(big.socket, 'irn_publish', { topic: topic(), message: nearly, ttl: 60 })
    expect(published.result).toBe(true)

    big.socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'irn_publish',
        params: { message: 'x'.repeat(Relay.maxPayloadBytes) },
      }),
    )
    expect((await big.closed).code).toBe(1009)
    expect(bystander.socket.readyState).toBe(WebSocket.OPEN)
    expect((await call(bystander.socket, 'irn_subscribe', { topic: topic() })).result).toEqual(
      expect.any(String),
    )
  })

  it('closes a socket that sends nothing for the idle time-out, and keeps one that talks', async () => {
    const relay = await relayWith({ idleTimeoutMs: 400 })
    const started = performance.now()
    const quiet = await open(relay.url)
    const chatty = await open(relay.url)
    let quietClosed = false
    void quiet.closed.then(() => {
      quietClosed = true
    })
    // The chatty one asks something every 100 ms until the quiet one has been closed, and a while after.
    let rounds = 0
    while (!quietClosed || rounds < 8) {
      expect((await call(chatty.socket, 'irn_subscribe', { topic: topic() })).result).toEqual(
        expect.any(String),
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (quietClosed) rounds++
    }
    const { code, at } = await quiet.closed
    expect(code).toBe(1000)
    expect(at - started).toBeGreaterThanOrEqual(390)
    expect(chatty.socket.readyState).toBe(WebSocket.OPEN)
  })
})
