import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Database from './Database.ts'
import * as Projects from './features/projects/Projects.ts'
import { memoryDatabase } from './internal/memoryDatabase.ts'
import { configOf } from './internal/testApi.ts'
import * as Service from './Service.ts'

let db: Database.Database
let running: Service.Running
let port: number
beforeAll(async () => {
  db = await memoryDatabase()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  running = await Service.listen(Service.create({ db, config: configOf() }), {
    apiPort: 0,
    receiveTimeouts: { headersMs: 500, requestMs: 1_000 },
  })
  port = Number(new URL(running.apiUrl).port)
})
afterAll(async () => {
  await running?.stop()
  await db?.close()
})

/**
 * A raw connection that sends `start`, then `drip` one byte at a time every 100 ms until the server closes
 * it; what the server wrote.
 */
function slowClient(start: string, drip = ''): Promise<{ answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(start))
    let answer = ''
    let sent = 0
    const dripping = setInterval(() => {
      if (sent < drip.length && socket.writable) socket.write(drip[sent++] ?? '')
    }, 100)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(dripping)
      resolve({ answer })
    })
    socket.setTimeout(10_000, () => {
      socket.destroy()
      reject(new Error('the server kept a slow client for 10 s'))
    })
  })
}

describe('Service.listen', () => {
  it('drops a client that sends its headers too slowly', async () => {
    const { answer } = await slowClient('GET /health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: yes'.repeat(100))
    // Before the client's own 10 s: the server's limit, not Node's default minutes.
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })

  it('drops a client that sends its body too slowly', async () => {
    const head = 'POST /e?projectId=demo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
    const { answer } = await slowClient(`${head}Content-Length: 500\r\n\r\n`, '{'.repeat(500))
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })

  it('still serves clients that are not slow', async () => {
    const response = await fetch(`${running.apiUrl}/health`)
    expect(await response.json()).toEqual({ ok: true })
  })
})
