import { randomBytes } from 'node:crypto'
import { createSolanaRpc, generateKeyPairSigner } from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Solana from '../solana/Solana.ts'
import * as Treasury from './Treasury.ts'

let chain: Solana.Instance
let sandboxChain: Treasury.SandboxChain
const keys = { evm: `0x${'11'.repeat(32)}` as const, solana: randomBytes(32).toString('hex') }

beforeAll(async () => {
  chain = await Solana.start({ port: 0, slotMs: 50 })
  sandboxChain = {
    id: Solana.caipNetworkId,
    name: 'Solana Test Chain',
    network: 'solana-test',
    native: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrl: chain.rpcUrl,
    tokens: [],
  }
  await Treasury.fund([sandboxChain], keys)
})
afterAll(() => chain?.stop())

describe('the treasury on a Solana chain', () => {
  it('delivers SOL by a signed transfer the chain confirms, exactly the amount bought', async () => {
    const treasury = Treasury.create([sandboxChain], keys)
    const { address } = await generateKeyPairSigner()
    const signature = await treasury.deliver({
      chainId: sandboxChain.id,
      symbol: 'SOL',
      to: address,
      amount: '0.65833333',
    })
    const rpc = createSolanaRpc(chain.rpcUrl)
    const { value } = await rpc.getBalance(address, { commitment: 'confirmed' }).send()
    expect(value).toBe(658_333_330n)
    const { value: statuses } = await rpc.getSignatureStatuses([signature as never]).send()
    expect(statuses[0]?.err).toBeNull()
  })

  it('refuses an address that is not a Solana one, sending nothing', async () => {
    const treasury = Treasury.create([sandboxChain], keys)
    await expect(
      treasury.deliver({ chainId: sandboxChain.id, symbol: 'SOL', to: `0x${'22'.repeat(20)}`, amount: '1' }),
    ).rejects.toThrow('is not an address of')
    expect(Treasury.isAddressOf(sandboxChain.id, `0x${'22'.repeat(20)}`)).toBe(false)
  })

  it('has no Solana key to deliver with unless given one', async () => {
    const treasury = Treasury.create([sandboxChain], { evm: keys.evm })
    const { address } = await generateKeyPairSigner()
    await expect(
      treasury.deliver({ chainId: sandboxChain.id, symbol: 'SOL', to: address, amount: '1' }),
    ).rejects.toThrow('The treasury has no Solana key')
  })
})
