/**
 * The paymaster drain, tried as an attacker would with nothing but a sponsored project's public id: throw-away
 * senders (fresh counterfactual AirlockAccounts whose owner the attacker holds) ask the API's ERC-7677 route
 * to sponsor operations sized or priced to make the EntryPoint pay more than the gas costs, and the attacker
 * hands what it signs straight to `EntryPoint.handleOps`, its own address the beneficiary, tipping nothing.
 * What the paymaster's deposit lost and what the attacker's balance gained are read on chain.
 */
import { type Address, createWalletClient, type Hex, http, parseEther, parseGwei } from 'viem'
import {
  entryPoint08Abi,
  formatUserOperationRequest,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAbstraction } from '../../../../devnet/src/Chains.ts'
import * as Testing from './testing.ts'

let aa: Testing.AaStack
beforeAll(async () => {
  aa = await Testing.start()
}, 180_000)
afterAll(() => aa?.stop())

type Operation = UserOperation<'0.8'>
type Gas = Pick<Operation, 'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas'>
type Fees = Pick<Operation, 'maxFeePerGas' | 'maxPriorityFeePerGas'>
type Refusal = { code: number; message: string }

/** One JSON-RPC call to one of the API's routes for the sponsored project, as any client makes it. */
async function call<T>(route: 'bundler' | 'paymaster', method: string, params: unknown[]) {
  const response = await fetch(aa.routeUrl(route), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as { result?: T; error?: Refusal }
}

/** A 2 gwei tip over three times the chain's base fee: what an honest client might well offer. */
async function chainFees(): Promise<Fees> {
  const { baseFeePerGas } = await aa.client.getBlock()
  const tip = parseGwei('2')
  return { maxFeePerGas: (baseFeePerGas ?? 0n) * 3n + tip, maxPriorityFeePerGas: tip }
}

type Sponsorship = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: Hex
  paymasterPostOpGasLimit: Hex
}

/**
 * A fresh sender's operation making `calls`, its gas estimated by the bundler as an honest client's is, then
 * changed by `shape` and given to the paymaster to sign.
 */
async function ask(
  calls: readonly { to: Address; data?: Hex }[],
  shape: (estimated: Gas & Fees) => Gas & Fees,
): Promise<{ refused: Refusal } | { operation: Operation; sign(): Promise<Operation> }> {
  const account = await aa.newAccount()
  const { factory, factoryData } = await account.getFactoryArgs()
  const draft: Operation = {
    sender: account.address,
    nonce: 0n,
    factory,
    factoryData,
    callData: await account.encodeCalls(calls.map(({ to, data }) => ({ to, value: 0n, data: data ?? '0x' }))),
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    ...(await chainFees()),
    signature: await account.getStubSignature(),
  }
  const chain = [accountAbstraction.entryPoint08, '0x7a69', {}]
  const stub = await call<Sponsorship>('paymaster', 'pm_getPaymasterStubData', [
    formatUserOperationRequest(draft),
    ...chain,
  ])
  if (!stub.result) return { refused: stub.error ?? { code: 0, message: 'no answer' } }
  const withStub = { ...draft, ...sponsorshipOf(stub.result) }
  const estimate = await call<Record<keyof Gas, Hex>>('bundler', 'eth_estimateUserOperationGas', [
    formatUserOperationRequest(withStub),
    accountAbstraction.entryPoint08,
  ])
  if (!estimate.result) throw new Error(`the bundler did not estimate: ${estimate.error?.message}`)
  const asked = {
    ...withStub,
    ...shape({
      callGasLimit: BigInt(estimate.result.callGasLimit),
      verificationGasLimit: BigInt(estimate.result.verificationGasLimit),
      preVerificationGas: BigInt(estimate.result.preVerificationGas),
      maxFeePerGas: draft.maxFeePerGas,
      maxPriorityFeePerGas: draft.maxPriorityFeePerGas,
    }),
  }
  const answer = await call<Sponsorship>('paymaster', 'pm_getPaymasterData', [
    formatUserOperationRequest(asked),
    ...chain,
  ])
  if (!answer.result) return { refused: answer.error ?? { code: 0, message: 'no answer' } }
  const operation = { ...asked, ...sponsorshipOf(answer.result) }
  return {
    operation,
    sign: async () => ({ ...operation, signature: await account.signUserOperation(operation) }),
  }
}

function sponsorshipOf(answer: Sponsorship) {
  return {
    paymaster: answer.paymaster,
    paymasterData: answer.paymasterData,
    paymasterVerificationGasLimit: BigInt(answer.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: BigInt(answer.paymasterPostOpGasLimit),
  }
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
  return aa.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

/**
 * One attacker tries `attempts` (each a fresh sender's operation), bundling whatever the paymaster signs;
 * answers what was refused, what the deposit lost and what the attacker gained, read on chain.
 */
async function drain(attempts: readonly ReturnType<typeof ask>[]) {
  const by = await attacker()
  const before = { deposit: await aa.deposit(), balance: await aa.client.getBalance({ address: by.address }) }
  const refusals: Refusal[] = []
  for (const attempt of attempts) {
    const asked = await attempt
    if ('refused' in asked) refusals.push(asked.refused)
    else await bundle(by, await asked.sign())
  }
  return {
    refusals,
    depositLost: before.deposit - (await aa.deposit()),
    profit: (await aa.client.getBalance({ address: by.address })) - before.balance,
  }
}

/** A call to a throw-away address: the operation's use is what it makes the paymaster pay. */
const nothing = [{ to: '0x00000000000000000000000000000000000b0b00' as Address }]

describe('the paymaster drain (an attacker bundling its own sponsored operations)', () => {
  it('five fresh senders with an inflated preVerificationGas take nothing from the deposit', async () => {
    const attempts = Array.from({ length: 5 }, () =>
      ask(nothing, (gas) => ({ ...gas, preVerificationGas: 2_000_000n })),
    )
    const { refusals, depositLost, profit } = await drain(attempts)
    expect({ depositLost, profited: profit > 0n }).toEqual({ depositLost: 0n, profited: false })
    expect(refusals).toHaveLength(5)
  }, 120_000)

  it('an inflated callGasLimit (the EntryPoint keeps 10% of what is left unused) takes nothing', async () => {
    const { refusals, depositLost, profit } = await drain([
      ask(nothing, (gas) => ({ ...gas, callGasLimit: 2_000_000n })),
    ])
    expect({ depositLost, profited: profit > 0n }).toEqual({ depositLost: 0n, profited: false })
    expect(refusals).toHaveLength(1)
  }, 60_000)

  it('an inflated verificationGasLimit takes nothing', async () => {
    const { refusals, depositLost, profit } = await drain([
      ask(nothing, (gas) => ({ ...gas, verificationGasLimit: 2_000_000n })),
    ])
    expect({ depositLost, profited: profit > 0n }).toEqual({ depositLost: 0n, profited: false })
    expect(refusals).toHaveLength(1)
  }, 60_000)

  it('a fee far over the base fee (a 100 gwei tip the attacker keeps) takes nothing', async () => {
    const { refusals, depositLost, profit } = await drain([
      ask(nothing, (gas) => ({
        ...gas,
        maxFeePerGas: parseGwei('100'),
        maxPriorityFeePerGas: parseGwei('100'),
      })),
    ])
    expect({ depositLost, profited: profit > 0n }).toEqual({ depositLost: 0n, profited: false })
    expect(refusals).toHaveLength(1)
  }, 60_000)
})
