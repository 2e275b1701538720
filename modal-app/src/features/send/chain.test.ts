import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Network } from '../../shared/Network.ts'
import { find } from '../../shared/networks.ts'
import * as ChainAccess from './chain.ts'

/** A loopback HTTP server answering JSON-RPC with `result`, or 404 for the chains it does not serve. */
async function serve(answer: (path: string) => { status: number; result?: unknown }) {
  const seen: string[] = []
  const server: Server = createServer((request, response) => {
    seen.push(request.url ?? '')
    const { status, result } = answer(request.url ?? '')
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify(status === 200 ? { jsonrpc: '2.0', id: 1, result } : { message: 'Unsupported chain' }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe('where Send reads the chain', () => {
  let api: Awaited<ReturnType<typeof serve>>
  let pageNode: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    // The API serves 31337 only; the page's node would answer anything.
    api = await serve((path) =>
      path.startsWith('/v1/rpc/eip155:31337') ? { status: 200, result: 'from the API' } : { status: 404 },
    )
    pageNode = await serve(() => ({ status: 200, result: 'from the page' }))
  })
  afterAll(async () => {
    await api.close()
    await pageNode.close()
  })
  const endpoint = (path: string) => `${api.url}${path}?projectId=demo`
  const devnet = find('eip155:31337') as Network

  it("asks the API's relay even where the page named an RPC URL of its own", async () => {
    const chain = ChainAccess.create({ network: { ...devnet, rpcUrl: pageNode.url }, endpoint })
    expect(await chain.rpc('eth_chainId', [])).toBe('from the API')
    expect(pageNode.seen).toEqual([])
  })

  it("uses the network's own URL only for a chain the API does not serve", async () => {
    const other = { ...devnet, id: 'eip155:424242' as const, rpcUrl: pageNode.url }
    const chain = ChainAccess.create({ network: other, endpoint })
    expect(await chain.rpc('eth_chainId', [])).toBe('from the page')
    expect(await chain.rpc('eth_chainId', [])).toBe('from the page')
    // The relay was asked once; after its 404 the chain goes to the network's URL directly.
    expect(api.seen.filter((path) => path.includes('424242'))).toHaveLength(1)
  })

  it('fails as unavailable where neither serves the chain', async () => {
    const chain = ChainAccess.create({ network: { ...devnet, id: 'eip155:424243', rpcUrl: '' }, endpoint })
    await expect(chain.rpc('eth_chainId', [])).rejects.toMatchObject({
      name: 'SendFailure',
      kind: 'unavailable',
    })
  })
})
