/**
 * The paymaster drain, tried as an attacker would with nothing but a sponsored project's public id: throw-away
 * senders (fresh counterfactual AirlockAccounts whose owner the attacker holds) ask the API's ERC-7677 route
 * to sponsor operations sized or priced to make the EntryPoint pay more than the gas costs, and the attacker
 * hands what it signs straight to `EntryPoint.handleOps`, its own address the beneficiary, tipping nothing.
 * What the paymaster's deposit lost and what the attacker's balance gained are read on chain.
 */
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  parseEther,
  parseEventLogs,
  parseGwei,
} from 'viem'
import { entryPoint08Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAbstraction, testTokenAddress } from '../../../../devnet/src/Chains.ts'
import { userOperationEvent } from './Follower.ts'
import * as Testing from './testing.ts'

/** The day's budget of `budgeted`: two of the operations below at most, not three. */
const dailyBudget = parseEther('0.002')
const policies = [
  {
    ...Testing.roomy('budgeted'),
    budget: {
      perDay: String(dailyBudget),
      total: String(parseEther('1')),
      perSenderPerDay: String(parseEther('1')),
    },
  },
  {
    ...Testing.roomy('listed'),
    calls: [
      { to: testTokenAddress, selectors: ['0xa9059cbb'] },
      { to: accountAbstraction.accountFactory, selectors: ['0x5fbfb9cf'] },
    ],
  },
]

let aa: Testing.AaStack
beforeAll(async () => {
  aa = await Testing.start({ policies })
}, 180_000)
afterAll(() => aa?.stop())

type Operation = UserOperation<'0.8'>
type Refusal = { code: number; message: string }
type Call = { to: Address; data?: `0x${string}` }

/**
 * A fresh sender's operation making `calls`, its gas estimated by the bundler as an honest client's is, then
 * changed by `shape` and given to the paymaster of `projectId` to sign.
 */
async function ask(
  calls: readonly Call[] | `0x${string}`,
  shape: (honest: Operation) => Operation = (honest) => honest,
  projectId?: string,
): Promise<{ refused: Refusal } | { signed: Operation }> {
  const { account, op } = await aa.draft(calls)
  const estimated = await aa.estimated(op, projectId)
  if (!estimated.op) return { refused: estimated.refused ?? { code: 0, message: 'no answer' } }
  const sponsored = await aa.sponsor(shape(estimated.op), projectId)
  if (!sponsored.op) return { refused: sponsored.refused ?? { code: 0, message: 'no answer' } }
  return { signed: { ...sponsored.op, signature: await account.signUserOperation(sponsored.op) } }
}

/** The attacker's address, with 1 ETH to pay for its own `handleOps` transactions. */
async function attacker(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey())
  await aa.testClient.setBalance({ address: account.address, value: parseEther('1') })
  return account
}

/** `handleOps` from `by`, its beneficiary, with no tip of its own: the whole tip the operation pays is kept. */
async function bundle(by: PrivateKeyAccount, operation: Operation) {
  const wallet = createWalletClient({ account: by, transport: http(aa.rpcUrl) })
  const { baseFeePerGas } = await aa.client.getBlock()
  const hash = await wallet.writeContract({
    chain: null,
    address: accountAbstraction.entryPoint08,
    abi: entryPoint08Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(operation)], by.address],
    maxFeePerGas: (baseFeePerGas ?? 0n) * 2n + 1n,
    maxPriorityFeePerGas: 0n,
    gas: 8_000_000n,
  })
  const receipt = await aa.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  const [event] = parseEventLogs({ abi: [userOperationEvent], logs: receipt.logs })
  if (!event) throw new Error('the EntryPoint ran no operation')
  const block = await aa.client.getBlock({ blockNumber: receipt.blockNumber })
  return { ...event.args, baseFee: block.baseFeePerGas ?? 0n }
}

/**
 * One attacker tries `attempts` (each a fresh sender's operation), bundling whatever the paymaster signs;
 * answers what was refused, the bundled ones' `UserOperationEvent`s, what the deposit lost and what the
 * attacker gained, read on chain.
 */
async function drain(attempts: readonly (() => ReturnType<typeof ask>)[]) {
  const by = await attacker()
  const before = { deposit: await aa.deposit(), balance: await aa.client.getBalance({ address: by.address }) }
  const refusals: Refusal[] = []
  const included: Awaited<ReturnType<typeof bundle>>[] = []
  for (const attempt of attempts) {
    const asked = await attempt()
    if ('refused' in asked) refusals.push(asked.refused)
    else included.push(await bundle(by, asked.signed))
  }
  return {
    refusals,
    included,
    depositLost: before.deposit - (await aa.deposit()),
    profit: (await aa.client.getBalance({ address: by.address })) - before.balance,
  }
}

/** A throw-away address: calling it, an operation's use is what it makes the paymaster pay. */
const bob: Address = '0x00000000000000000000000000000000000b0b00'
const nothing = [{ to: bob }]
const nothingTaken = { depositLost: 0n, profited: false }
const refusedFor = (rule: RegExp) => ({ code: -32003, message: expect.stringMatching(rule) })

describe('the paymaster drain (an attacker bundling its own sponsored operations)', () => {
  it('five fresh senders with an inflated preVerificationGas take nothing from the deposit', async () => {
    const inflated = () => ask(nothing, (honest) => ({ ...honest, preVerificationGas: 2_000_000n }))
    const { refusals, depositLost, profit } = await drain(Array.from({ length: 5 }, () => inflated))
    expect({ depositLost, profited: profit > 0n }).toEqual(nothingTaken)
    expect(refusals).toEqual(
      Array.from({ length: 5 }, () =>
        refusedFor(
          /^The operation asks for 2000000 preVerificationGas, more than the \d+ its size calls for$/,
        ),
      ),
    )
  }, 120_000)

  it.each([
    { field: 'callGasLimit', why: 'the EntryPoint keeps a tenth of what is left unused' },
    { field: 'verificationGasLimit', why: 'the prefund grows with it' },
  ] as const)(
    'an inflated $field ($why) takes nothing',
    async ({ field }) => {
      const { refusals, depositLost, profit } = await drain([
        () => ask(nothing, (honest) => ({ ...honest, [field]: 2_000_000n })),
      ])
      expect({ depositLost, profited: profit > 0n }).toEqual(nothingTaken)
      expect(refusals).toEqual([
        refusedFor(
          new RegExp(
            `^The operation asks for a ${field} of 2000000, more than the \\d+ the bundler's estimate allows$`,
          ),
        ),
      ])
    },
    60_000,
  )

  it('a fee far over the base fee (a 100 gwei tip the attacker keeps) takes nothing', async () => {
    const { refusals, depositLost, profit } = await drain([
      () =>
        ask(nothing, (honest) => ({
          ...honest,
          maxFeePerGas: parseGwei('100'),
          maxPriorityFeePerGas: parseGwei('100'),
        })),
    ])
    expect({ depositLost, profited: profit > 0n }).toEqual(nothingTaken)
    expect(refusals).toEqual([
      refusedFor(
        /^The operation offers a tip of 100 gwei per gas, more than the 2 gwei its sponsorship allows$/,
      ),
    ])
  }, 60_000)

  it('calls a project does not list take nothing: another contract, another function, call data it cannot read', async () => {
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bob, 1n] })
    const { refusals, depositLost, profit } = await drain([
      () => ask(nothing, undefined, 'listed'),
      () => ask([{ to: testTokenAddress, data: approve }], undefined, 'listed'),
      () => ask('0xdeadbeef', undefined, 'listed'),
    ])
    expect({ depositLost, profited: profit > 0n }).toEqual(nothingTaken)
    expect(refusals).toEqual([
      refusedFor(
        /^The operation calls 0x00000000000000000000000000000000000b0B00, which its sponsorship does not allow$/i,
      ),
      refusedFor(
        new RegExp(
          `^The operation calls 0x095ea7b3 on ${testTokenAddress}, which its sponsorship does not allow$`,
        ),
      ),
      refusedFor(/^The operation's call data is not the account's execute or executeBatch/),
    ])
  }, 60_000)

  it('operations within every rule from fresh senders stop at the day’s budget: the deposit loses no more, each paid at the base fee and the tip cap at most', async () => {
    const honest = () => ask(nothing, undefined, 'budgeted')
    const { refusals, included, depositLost } = await drain([honest, honest, honest])
    expect(refusals).toEqual([
      refusedFor(/more than the [\d.]+ ETH left of its sponsorship's daily budget of 0.002 ETH$/),
    ])
    expect(included).toHaveLength(2)
    expect(depositLost).toBe(included.reduce((sum, event) => sum + event.actualGasCost, 0n))
    expect(depositLost).toBeLessThanOrEqual(dailyBudget)
    // Whoever bundles keeps the tip, as any bundler does: the tip cap (2 gwei) bounds it.
    for (const event of included)
      expect(event.actualGasCost).toBeLessThanOrEqual(event.actualGasUsed * (event.baseFee + parseGwei('2')))
  }, 120_000)
})
