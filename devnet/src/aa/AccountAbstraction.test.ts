import { createPublicClient, http, isAddressEqual } from 'viem'
import { entryPoint07Address, entryPoint08Abi, entryPoint08Address } from 'viem/account-abstraction'
import { privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import { accountAbstraction } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import * as AccountAbstraction from './AccountAbstraction.ts'
import { verifyingPaymasterAbi } from './VerifyingPaymasterContract.ts'

describe('AccountAbstraction', () => {
  let devnet: Devnet.Instance
  beforeAll(async () => {
    // Free ports: the suite runs beside `npm start` and Devnet.test.ts.
    devnet = await Devnet.start({ ports: [0, 0] })
  })
  afterAll(() => devnet?.stop())

  const reader = (index: 0 | 1) => createPublicClient({ transport: http(devnet.chains[index].rpcUrl) })

  it('names the canonical EntryPoint addresses viem knows', () => {
    expect(accountAbstraction.entryPoint08).toBe(entryPoint08Address)
    expect(accountAbstraction.entryPoint07).toBe(entryPoint07Address)
  })

  it('deploys at the addresses Chains.ts names, as CREATE2 of the current code', () => {
    // Throws when a recompiled contract would land elsewhere.
    expect(() => AccountAbstraction.deployments()).not.toThrow()
  })

  it.each([0, 1] as const)('deploys every contract on chain %i', async (index) => {
    const client = reader(index)
    for (const address of Object.values(accountAbstraction))
      expect(await client.getCode({ address }), address).toMatch(/^0x[0-9a-f]{100,}$/)
  })

  it.each([0, 1] as const)(
    'funds the paymaster with 100 ETH at EntryPoint v0.8 on chain %i',
    async (index) => {
      const client = reader(index)
      const deposit = await client.readContract({
        address: accountAbstraction.entryPoint08,
        abi: entryPoint08Abi,
        functionName: 'balanceOf',
        args: [accountAbstraction.paymaster],
      })
      expect(deposit).toBe(AccountAbstraction.paymasterDeposit)
      const paymaster = { address: accountAbstraction.paymaster, abi: verifyingPaymasterAbi } as const
      const signer = await client.readContract({ ...paymaster, functionName: 'verifyingSigner' })
      expect(signer).toBe(privateKeyToAddress(AccountAbstraction.paymasterSignerKey))
      const owner = await client.readContract({ ...paymaster, functionName: 'owner' })
      expect(isAddressEqual(owner, Accounts.all()[0]?.address ?? '0x')).toBe(true)
    },
  )
})
