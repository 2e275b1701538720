import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import * as Anvil from '../Anvil.ts'
import { accountAbstraction } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import * as Bundler from './Bundler.ts'

async function call(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(5_000),
  })
  const body: { result?: unknown } = await response.json()
  return body.result
}

const nonces = (rpcUrl: string) =>
  Promise.all(
    Accounts.all().map(({ address }) => call(rpcUrl, 'eth_getTransactionCount', [address, 'latest'])),
  )

describe('Bundler', () => {
  let devnet: Devnet.Instance
  beforeAll(async () => {
    devnet = await Devnet.start({ ports: [0, 0] })
  })
  afterAll(() => devnet?.stop())

  it('serves both EntryPoints on the chain until stopped, paying with keys of its own', async () => {
    const [chain] = devnet.chains
    const before = await nonces(chain.rpcUrl)
    const bundler = await Bundler.start({ rpcUrl: chain.rpcUrl, port: 0 })
    try {
      expect(bundler.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d+$/)
      const served = [accountAbstraction.entryPoint08, accountAbstraction.entryPoint07]
      expect(bundler.entryPoints).toEqual(served)
      expect(await call(bundler.url, 'eth_supportedEntryPoints')).toEqual(served)
      expect(await call(bundler.url, 'eth_chainId')).toBe('0x7a69')
      // Alto deployed its simulation contracts from its utility account: anvil's accounts sent nothing.
      expect(await nonces(chain.rpcUrl)).toEqual(before)
    } finally {
      await Promise.all([bundler.stop(), bundler.stop()])
    }
    await expect(call(bundler.url, 'eth_chainId')).rejects.toThrow()
  })

  it('listens on the interface it is given, not on every one', async () => {
    const bundler = await Bundler.start({ rpcUrl: devnet.chains[1].rpcUrl, port: 0 })
    try {
      const port = new URL(bundler.url).port
      expect(await call(bundler.url, 'eth_chainId')).toBe('0x7a6a')
      // 127.0.0.2 is loopback too: a server on 0.0.0.0 would answer there.
      await expect(call(`http://127.0.0.2:${port}`, 'eth_chainId')).rejects.toThrow()
    } finally {
      await bundler.stop()
    }
  })

  it('reports Alto refusing a chain without the EntryPoints', async () => {
    const bare = await Anvil.start({ port: 0, chainId: 4337 })
    try {
      await expect(Bundler.start({ rpcUrl: bare.rpcUrl, port: 0 })).rejects.toThrow(/alto exited/)
    } finally {
      await bare.stop()
    }
  })
})
