import { type PageWallet, type Request, type Schema, Siwx } from '@airlock/bridge-protocol'
import { verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { signIn } from './message.ts'

const wallet: PageWallet = {
  id: 'eip6963:test',
  namespace: 'eip155',
  name: 'Test Wallet',
  icon: 'data:image/svg+xml,<svg/>',
  rdns: 'dev.test',
  chains: [],
}
const owner = privateKeyToAccount(generatePrivateKey())

/** Signs in with `address` as the wallet spells it; answers the text the API got and the request made. */
async function signedBy(address: string, chainId: `${string}:${string}` = 'eip155:31337') {
  const requests: Request[] = []
  let received: { message: string; signature: string } | undefined
  await signIn({
    connection: { wallet, accounts: [{ address }], chainId: chainId as Siwx.Message['chainId'] },
    origin: 'http://[::1]:5173',
    statement: 'Welcome back.',
    api: {
      nonce: async () => 'n0nce12345',
      signIn: async (message, signature) => {
        received = { message, signature }
        return {} as Schema.Session
      },
    },
    sign: async (request) => {
      requests.push(request)
      if (request.method !== 'personal_sign') return { signature: new Uint8Array(64) }
      const [hex] = request.params as [`0x${string}`]
      return owner.signMessage({ message: { raw: hex } })
    },
    now: () => Date.UTC(2026, 10, 22),
  })
  if (!received) throw new Error('the API was not called')
  return { ...received, requests }
}

describe('the sign-in message the modal builds', () => {
  it('writes the EIP-55 spelling of an address the wallet gave in lower case, and the wallet signs it', async () => {
    const { message, signature, requests } = await signedBy(owner.address.toLowerCase())
    expect(Siwx.parse(message)).toMatchObject({
      domain: '[::1]:5173',
      uri: 'http://[::1]:5173',
      accountAddress: owner.address,
      chainId: 'eip155:31337',
      statement: 'Welcome back.',
    })
    expect(message.split('\n')[1]).toBe(owner.address)
    expect(requests[0]?.params).toEqual([expect.any(String), owner.address])
    expect(
      await verifyMessage({ address: owner.address, message, signature: signature as `0x${string}` }),
    ).toBe(true)
  })

  it('keeps the spelling of other namespaces, whose addresses are case-sensitive', async () => {
    const key = 'GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1'
    const { message } = await signedBy(key, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')
    expect(Siwx.parse(message)).toMatchObject({
      accountAddress: key,
      chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    })
  })
})
