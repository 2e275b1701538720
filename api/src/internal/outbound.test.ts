import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import * as Outbound from './outbound.ts'

describe('isPublic', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.100.100.200',
    '127.0.0.1',
    '127.255.255.254',
    '168.63.129.16',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.192',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::a9fe:a9fe',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '2001::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(Outbound.isPublic(address)).toBe(false)
  })

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111'])(
    'lets %s through',
    (address) => {
      expect(Outbound.isPublic(address)).toBe(true)
    },
  )
})

/** A loopback server that counts what it is asked, answering with `answer`. */
async function listener(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
  host = '127.0.0.1',
  port = 0,
) {
  const seen: string[] = []
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`)
    answer(request, response)
  })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  servers.push(server)
  return { seen, port: (server.address() as AddressInfo).port }
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const caps = { timeoutMs: 2_000, maxBytes: 1_024 }
const ok = (_: IncomingMessage, response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"0x01"}')

describe('Outbound.request', () => {
  it('refuses loopback, private and metadata hosts, by literal or by name, before connecting', async () => {
    const { seen, port } = await listener(ok)
    const refusals = [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
    ]
    for (const url of refusals)
      await expect(
        Outbound.request(new URL(url), { method: 'GET' }, { internal: [], ...caps }),
      ).rejects.toThrow(Outbound.OutboundError)
    // A name whose addresses include one that is not public is refused whole, whichever comes first.
    const resolve: Outbound.Resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]
    await expect(
      Outbound.request(
        new URL(`http://gateway.example:${port}/`),
        { method: 'GET' },
        { internal: [], resolve, ...caps },
      ),
    ).rejects.toThrow(/resolves to 127\.0\.0\.1, which is not public/)
    await expect(
      Outbound.request(new URL('file:///etc/passwd'), { method: 'GET' }, { internal: [], ...caps }),
    ).rejects.toThrow(/file: URLs are not asked/)
    expect(seen).toEqual([])
  })

  it('asks an origin the deployment lists as internal, at the address it resolved once (no rebinding)', async () => {
    const first = await listener(ok)
    // The same port on another loopback address: where a second resolution would send the connection.
    const second = await listener(ok, '127.0.0.2', first.port)
    let resolutions = 0
    const resolve: Outbound.Resolve = async () => {
      resolutions++
      return [{ address: resolutions === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }]
    }
    const origin = `http://gateway.internal:${first.port}`
    const answer = await Outbound.request(
      new URL(`${origin}/lookup?x=1`),
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      { internal: [origin], resolve, ...caps },
    )
    expect(answer).toEqual({ status: 200, contentType: 'application/json', text: '{"data":"0x01"}' })
    expect(first.seen).toEqual(['POST /lookup?x=1'])
    expect(second.seen).toEqual([])
    expect(resolutions).toBe(1)
    // Another port of the same host is another origin: not listed.
    await expect(
      Outbound.request(
        new URL(`http://gateway.internal:${first.port + 1}/`),
        { method: 'GET' },
        {
          internal: [origin],
          resolve,
          ...caps,
        },
      ),
    ).rejects.toThrow(Outbound.OutboundError)
  })

  it('answers a redirect as it came, never following it', async () => {
    const target = await listener(ok)
    const redirecting = await listener((_, response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/inside` }).end(),
    )
    const origin = `http://127.0.0.1:${redirecting.port}`
    const answer = await Outbound.request(
      new URL(`${origin}/`),
      { method: 'GET' },
      { internal: [origin], ...caps },
    )
    expect(answer.status).toBe(302)
    expect(target.seen).toEqual([])
  })

  it('lets go of an answer over its size or its time', async () => {
    const large = await listener((_, response) => response.writeHead(200).end('x'.repeat(caps.maxBytes + 1)))
    const stalled = await listener((_, response) => response.writeHead(200).write('0x'))
    const ask = (port: number, timeoutMs = caps.timeoutMs) => {
      const origin = `http://127.0.0.1:${port}`
      return Outbound.request(
        new URL(`${origin}/`),
        { method: 'GET' },
        { ...caps, internal: [origin], timeoutMs },
      )
    }
    await expect(ask(large.port)).rejects.toThrow(`answered more than ${caps.maxBytes} bytes`)
    await expect(ask(stalled.port, 200)).rejects.toThrow('took longer than 200 ms')
  })
})
