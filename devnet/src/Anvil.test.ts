import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import * as Anvil from './Anvil.ts'
import * as AnvilBinary from './AnvilBinary.ts'

async function chainIdOf(rpcUrl: string): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  })
  const body: { result?: unknown } = await response.json()
  return body.result
}

describe('Anvil', () => {
  const running: Anvil.Instance[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((node) => node.stop()))
    delete process.env.ANVIL_BINARY
  })

  it('finds the platform binary shipped with @foundry-rs/anvil', () => {
    expect(existsSync(AnvilBinary.path())).toBe(true)
  })

  it('serves the requested chain on loopback until stopped', async () => {
    const node = await Anvil.start({ port: 18555, chainId: 4242 })
    running.push(node)
    expect(node).toMatchObject({ rpcUrl: 'http://127.0.0.1:18555', chainId: 4242 })
    expect(await chainIdOf(node.rpcUrl)).toBe('0x1092')
    await Promise.all([node.stop(), node.stop()])
    await expect(chainIdOf(node.rpcUrl)).rejects.toThrow()
  })

  it('takes a free port for port 0 and names it in its RPC URL', async () => {
    const node = await Anvil.start({ port: 0, chainId: 4243 })
    running.push(node)
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d+$/)
    expect(await chainIdOf(node.rpcUrl)).toBe('0x1093')
  })

  it('refuses a port that is already taken', async () => {
    running.push(await Anvil.start({ port: 18556, chainId: 1 }))
    await expect(Anvil.start({ port: 18556, chainId: 2 })).rejects.toThrow(/port 18556 .* already in use/)
  })

  it('reports anvil dying during startup', async () => {
    process.env.ANVIL_BINARY = '/bin/false'
    await expect(Anvil.start({ port: 18557, chainId: 1 })).rejects.toThrow(/anvil exited \(code 1\)/)
  })
})
