/**
 * User operation send → included, as the embedded wallet sees it: an AirlockAccount's sponsored operation
 * sent through the API's bundler route (`eth_sendUserOperation`, Alto behind it), then its receipt asked
 * for until it is in a block. Preparing (gas estimation, the paymaster's signature) and signing happen
 * before the clock starts. The bench reports the median and the 99th percentile.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPublicClient, http, parseGwei } from 'viem'
import { createBundlerClient, createPaymasterClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { accountAbstraction, devnetA } from '../Chains.ts'

export type MeasureOptions = {
  /** The API whose `/v1/bundler` and `/v1/paymaster` routes serve chain A. */
  apiUrl: string
  /** Chain A's node. @default its default RPC, http://127.0.0.1:8545 */
  rpcUrl?: string | undefined
  /** A sponsored project. @default 'demo' */
  projectId?: string
  /** Operations measured, after one that deploys the account. @default 20 */
  operations?: number
}

export type Measurement = { operations: number; p50Ms: number; p99Ms: number }

/**
 * @example
 * const { p50Ms } = await measureUserOperations({ apiUrl: stack.apiUrl })
 */
export async function measureUserOperations(options: MeasureOptions): Promise<Measurement> {
  const count = options.operations ?? 20
  const route = (name: string) =>
    `${options.apiUrl}/v1/${name}/eip155:${devnetA.id}?projectId=${options.projectId ?? 'demo'}`
  const client = createPublicClient({ chain: devnetA, transport: http(options.rpcUrl) })
  const account = await toSimpleSmartAccount({
    client,
    owner: privateKeyToAccount(generatePrivateKey()),
    factoryAddress: accountAbstraction.accountFactory,
    entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
  })
  const bundler = createBundlerClient({
    account,
    client,
    transport: http(route('bundler')),
    paymaster: createPaymasterClient({ transport: http(route('paymaster')) }),
    // A tip of 1 gwei over twice the base fee, the same in every run: what anvil suggests (its last block's
    // lowest tip) moves with whatever else the chain has just mined.
    userOperation: {
      estimateFeesPerGas: async () => {
        const block = await client.getBlock()
        const tip = parseGwei('1')
        return { maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + tip, maxPriorityFeePerGas: tip }
      },
    },
  })
  const took: number[] = []
  // The first operation deploys the account: not what a visitor's usual operation costs.
  for (let i = -1; i < count; i++) {
    const prepared = await bundler.prepareUserOperation({
      calls: [{ to: `0x${(0x5000 + i + 1).toString(16).padStart(40, '0')}`, value: 0n }],
    })
    const signature = await account.signUserOperation(prepared)
    const started = performance.now()
    const hash = await bundler.sendUserOperation({ ...prepared, signature })
    const receipt = await bundler.waitForUserOperationReceipt({ hash, pollingInterval: 20 })
    if (!receipt.success) throw new Error(`user operation ${hash} reverted`)
    if (i >= 0) took.push(performance.now() - started)
  }
  took.sort((a, b) => a - b)
  const at = (q: number) => took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? Number.NaN
  const round = (ms: number) => Math.round(ms * 10) / 10
  return { operations: count, p50Ms: round(at(0.5)), p99Ms: round(at(0.99)) }
}
