import { randomBytes } from 'node:crypto'
import { Config, Projects, Service } from '@airlock/api'
import { memoryDatabase } from '@airlock/api/memory-database'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Anvil from '../Anvil.ts'
import * as Farcaster from './Farcaster.ts'

describe('Sign In With Farcaster on the devnet', () => {
  let anvil: Anvil.Instance
  let relay: Farcaster.Relay.Instance
  beforeAll(async () => {
    ;[anvil, relay] = await Promise.all([
      Anvil.start({ port: 0, chainId: 31337 }),
      Farcaster.Relay.start({ port: 0 }),
    ])
  })
  afterAll(async () => {
    await relay?.stop()
    await anvil?.stop()
  })

  it('logs a key that owns a fid in at the API, configured as the stack configures it', async () => {
    const address = await Farcaster.IdRegistry.deploy(anvil.rpcUrl)
    const custody = privateKeyToAccount(generatePrivateKey())
    await Farcaster.IdRegistry.register({ rpcUrl: anvil.rpcUrl, address }, custody.address, 31337n)
    const db = await memoryDatabase()
    try {
      await Projects.add(db, 'demo')
      const config = Config.parse({
        apiUrl: 'http://127.0.0.1:8787',
        modalOrigin: 'http://127.0.0.1:5174',
        chains: [
          {
            id: 'eip155:31337',
            name: 'Airlock Devnet A',
            rpcUrl: anvil.rpcUrl,
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          },
        ],
        email: {
          smtp: { host: '127.0.0.1', port: 1025 },
          from: 'login@airlock.localhost',
          secret: 'k'.repeat(32),
        },
        farcaster: { relayUrl: relay.url, idRegistry: { chainId: 'eip155:31337', address } },
      })
      const { api } = Service.create({ db, config })
      const post = async (path: string, body: unknown) => {
        const response = await api.request(`${path}?projectId=demo`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
        return { status: response.status, body: await response.json() }
      }
      const binding = randomBytes(24).toString('base64url')
      const opened = await post('/v1/auth/farcaster/channel', { binding })
      expect(opened.status).toBe(200)
      const { channelToken, url } = opened.body as { channelToken: string; url: string }
      await Farcaster.Relay.signIn(relay, url, { custody, fid: 31337, username: 'grace' })
      expect(await post('/v1/auth/farcaster/status', { channelToken, binding })).toMatchObject({
        status: 200,
        body: { user: { provider: 'farcaster', fid: 31337, username: 'grace' } },
      })
    } finally {
      await db.close()
    }
  })

  it('says which port is taken', async () => {
    const port = Number(new URL(relay.url).port)
    await expect(Farcaster.Relay.start({ port })).rejects.toThrow(
      `Farcaster relay port ${port} is already in use`,
    )
  })
})
