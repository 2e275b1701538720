/**
 * What the account contracts' tests share: the devnet's chain A with its clients, and ALT from anvil's
 * account 0 (it holds a million).
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type PrivateKeyAccount,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import * as Accounts from '../Accounts.ts'
import { testTokenAddress } from '../Chains.ts'
import type * as Devnet from '../Devnet.ts'
import { testTokenAbi } from '../TestToken.ts'

/**
 * @example
 * const chain = Testing.chainOf(devnet)
 * await chain.fund(account.address, parseEther('100'))
 */
export function chainOf(devnet: Devnet.Instance) {
  const { chain, chainId, rpcUrl } = devnet.chains[0]
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 })
  const wallet = (signer: PrivateKeyAccount) =>
    createWalletClient({ account: signer, chain, transport: http(rpcUrl) })
  return {
    chainId,
    client,
    wallet,
    testClient: createTestClient({ mode: 'anvil', chain, transport: http(rpcUrl) }),
    /** Sends `amount` ALT from account 0. */
    async fund(to: Address, amount: bigint) {
      const first = Accounts.all()[0]
      if (!first) throw new Error('no account 0')
      const hash = await wallet(privateKeyToAccount(first.privateKey)).writeContract({
        address: testTokenAddress,
        abi: testTokenAbi,
        functionName: 'transfer',
        args: [to, amount],
      })
      await client.waitForTransactionReceipt({ hash })
    },
  }
}
