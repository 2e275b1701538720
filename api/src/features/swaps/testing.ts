/** What the swap tests share: a test key sending the API's swap transaction to anvil, as a wallet would. */
import { type Address, type Chain, createPublicClient, createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'
import type * as Contract from '../../contract/index.ts'

/**
 * Sends `tx` from `account` on `chain` and waits for it to succeed; what it cost in wei and in gas.
 * @example const { cost } = await sendSwap(devnet.chains[0], trader, answer.tx)
 */
export async function sendSwap(
  chain: { chain: Chain; rpcUrl: string },
  account: { privateKey: Hex },
  tx: Contract.SwapTransaction,
): Promise<{ cost: bigint; gasUsed: bigint }> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: chain.chain,
    transport: http(chain.rpcUrl),
  })
  const hash = await wallet.sendTransaction({
    to: tx.to as Address,
    data: tx.data as Hex,
    value: BigInt(tx.value),
    ...(tx.eip155.gas === undefined ? {} : { gas: BigInt(tx.eip155.gas) }),
  })
  const reader = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return { cost: receipt.gasUsed * receipt.effectiveGasPrice, gasUsed: receipt.gasUsed }
}
