import {
  type Address,
  createWalletClient,
  decodeAbiParameters,
  encodeFunctionData,
  http,
  parseGwei,
  size,
  slice,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../../../../devnet/src/Accounts.ts'
import { accountAbstraction, testTokenAddress } from '../../../../devnet/src/Chains.ts'
import { testTokenAbi } from '../../../../devnet/src/TestToken.ts'
import { messages as httpMessages } from '../../http/errors.ts'
import * as Fees from './Fees.ts'
import * as Follower from './Follower.ts'
import * as Ledger from './Ledger.ts'
import { messages } from './messages.ts'
import * as Paymaster from './Paymaster.ts'
import { defaultBaseFeeMultiplier, defaultMaxGas, defaultMaxPriorityFeePerGasGwei } from './Sponsorship.ts'
import * as Testing from './testing.ts'

let aa: Testing.AaStack
beforeAll(async () => {
  aa = await Testing.start()
}, 180_000)
afterAll(() => aa?.stop())

const token = { address: testTokenAddress, abi: testTokenAbi } as const
const fresh = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address

/** Mints ALT to `to` from account 0 (the test token's mint is open). */
async function mint(to: Address, amount: bigint) {
  const [first] = Accounts.all()
  if (!first) throw new Error('no account 0')
  const { request } = await aa.client.simulateContract({
    ...token,
    account: first.address,
    functionName: 'mint',
    args: [to, amount],
  })
  const wallet = createWalletClient({ chain: aa.client.chain, transport: http(aa.devnet.chains[0].rpcUrl) })
  await aa.client.waitForTransactionReceipt({ hash: await wallet.writeContract(request) })
}

const approveAndTransfer = (spender: Address, to: Address, amount: bigint) => [
  {
    to: testTokenAddress,
    data: encodeFunctionData({ ...token, functionName: 'approve', args: [spender, amount] }),
  },
  {
    to: testTokenAddress,
    data: encodeFunctionData({ ...token, functionName: 'transfer', args: [to, amount] }),
  },
]

/** One raw JSON-RPC call to a route, as any client sends it. */
async function post(url: string, method: string, params: unknown[]) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  })
  return {
    status: response.status,
    body: (await response.json()) as {
      id: unknown
      result?: Record<string, unknown>
      error?: { code: number; message: string }
    },
  }
}

/** An operation as a client asks for a stub: no gas yet. */
async function draft() {
  const account = await aa.newAccount()
  const { factory, factoryData } = await account.getFactoryArgs()
  return {
    account,
    op: {
      sender: account.address,
      nonce: '0x0',
      factory,
      factoryData,
      callData: await account.encodeCalls([{ to: fresh(1), value: 0n }]),
    },
  }
}

describe('POST /v1/paymaster/{chainId}', () => {
  it('pays for a counterfactual account with zero ETH: deployed, its batch of approve and transfer run atomically', async () => {
    const { account, bundlerClient } = await aa.clientsFor()
    const [spender, recipient] = [fresh(0x5e), fresh(0x7e)]
    await mint(account.address, 10n)
    expect(await aa.client.getCode({ address: account.address })).toBeUndefined()
    expect(await aa.client.getBalance({ address: account.address })).toBe(0n)
    const depositBefore = await aa.deposit()

    const hash = await bundlerClient.sendUserOperation({ calls: approveAndTransfer(spender, recipient, 7n) })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })

    expect(receipt.success).toBe(true)
    expect(receipt.paymaster?.toLowerCase()).toBe(accountAbstraction.paymaster.toLowerCase())
    expect(await aa.client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]{2,}/)
    expect(
      await aa.client.readContract({ ...token, functionName: 'allowance', args: [account.address, spender] }),
    ).toBe(7n)
    expect(await aa.client.readContract({ ...token, functionName: 'balanceOf', args: [recipient] })).toBe(7n)
    expect(
      await aa.client.readContract({ ...token, functionName: 'balanceOf', args: [account.address] }),
    ).toBe(3n)
    expect(await aa.client.getBalance({ address: account.address })).toBe(0n)
    // The paymaster paid exactly what the EntryPoint charged for the operation, and the project's budget
    // counts that, once the follower has read the chain, in place of what the signature held.
    expect(depositBefore - (await aa.deposit())).toBe(receipt.actualGasCost)
    expect(receipt.actualGasCost).toBeGreaterThan(0n)
    const follower = Follower.create({
      db: aa.db,
      chainId: Testing.chainId,
      client: aa.client,
      paymaster: accountAbstraction.paymaster,
      entryPoint: async () => accountAbstraction.entryPoint08,
    })
    while ((await follower.step()) !== 'idle');
    const [spend] = await Ledger.spend(aa.db, Testing.sponsored, Ledger.dayOf(aa.clock.now()))
    expect(spend?.senders.find(({ sender }) => sender === account.address.toLowerCase())).toEqual({
      sender: account.address.toLowerCase(),
      cost: receipt.actualGasCost,
      operations: 1,
      reserved: 0n,
    })
  }, 60_000)

  it('refuses a project it does not sponsor, and nothing reaches the chain', async () => {
    const { account, bundlerClient } = await aa.clientsFor(Testing.unsponsored)
    await expect(
      bundlerClient.sendUserOperation({ calls: approveAndTransfer(fresh(1), fresh(2), 0n) }),
    ).rejects.toThrow(messages.notSponsored(Testing.unsponsored))
    expect(await aa.client.getCode({ address: account.address })).toBeUndefined()
    const { op } = await draft()
    const answer = await post(aa.routeUrl('paymaster', Testing.unsponsored), 'pm_getPaymasterStubData', [
      op,
      accountAbstraction.entryPoint08,
      '0x7a69',
      {},
    ])
    expect(answer).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 7, error: { code: -32003, message: 'Project free is not sponsored' } },
    })
  }, 60_000)

  it('refuses a project that is not configured, and a chain it has no paymaster on', async () => {
    const { op } = await draft()
    const params = [op, accountAbstraction.entryPoint08, '0x7a69', {}]
    const unknown = await post(aa.routeUrl('paymaster', 'nope'), 'pm_getPaymasterData', params)
    expect(unknown.body.error).toEqual({ code: -32003, message: httpMessages.projectNotConfigured })
    const otherChain = await post(
      aa.routeUrl('paymaster').replace(Testing.chainId, 'eip155:1'),
      'pm_getPaymasterData',
      params,
    )
    expect(otherChain.body.error).toEqual({ code: -32602, message: 'Unsupported chain: eip155:1' })
  })

  it('answers a stub to estimate with, for its own EntryPoint and chain only', async () => {
    const { op } = await draft()
    const stub = await post(aa.routeUrl('paymaster'), 'pm_getPaymasterStubData', [
      op,
      accountAbstraction.entryPoint08,
      '0x7a69',
      {},
    ])
    expect(stub.body.result).toMatchObject({
      paymaster: accountAbstraction.paymaster,
      paymasterVerificationGasLimit: `0x${Paymaster.gasLimits.verification.toString(16)}`,
      paymasterPostOpGasLimit: '0x0',
      isFinal: false,
    })
    // abi.encode(validUntil, validAfter) and a 65-byte signature.
    expect(String(stub.body.result?.paymasterData)).toMatch(/^0x[0-9a-f]{258}$/)
    const v07 = await post(aa.routeUrl('paymaster'), 'pm_getPaymasterStubData', [
      op,
      accountAbstraction.entryPoint07,
      '0x7a69',
      {},
    ])
    expect(v07.body.error).toEqual({
      code: -32602,
      message: messages.otherEntryPoint(
        Testing.chainId,
        accountAbstraction.entryPoint08,
        accountAbstraction.entryPoint07,
      ),
    })
    const chainB = await post(aa.routeUrl('paymaster'), 'pm_getPaymasterStubData', [
      op,
      accountAbstraction.entryPoint08,
      '0x7a6a',
      {},
    ])
    expect(chainB.body.error).toEqual({ code: -32602, message: 'chainId 0x7a6a is not eip155:31337' })
  })

  it('signs for ten minutes an operation within the sponsorship’s gas, and refuses one over it', async () => {
    const { op } = await aa.draft([{ to: fresh(1) }])
    const estimated = await aa.estimated(op)
    if (!estimated.op) throw new Error(`no stub: ${estimated.refused?.message}`)
    const signed = await aa.sponsor(estimated.op)
    const paymasterData = signed.op?.paymasterData ?? '0x'
    const [validUntil, validAfter] = decodeAbiParameters(
      [{ type: 'uint48' }, { type: 'uint48' }],
      slice(paymasterData, 0, 64),
    )
    expect(validAfter).toBe(0)
    expect(Math.abs(validUntil - (Math.floor(aa.clock.now() / 1000) + Paymaster.validityS))).toBeLessThan(5)
    expect(size(paymasterData)).toBe(64 + 65)
    // The paymaster's own gas, whatever the client named.
    expect(signed.op).toMatchObject({
      paymasterVerificationGasLimit: Paymaster.gasLimits.verification,
      paymasterPostOpGasLimit: 0n,
    })
    const over = await aa.sponsor({
      ...estimated.op,
      callGasLimit: 3_000_000n,
      paymasterPostOpGasLimit: 10n ** 6n,
    })
    // 3,000,000, the verification and pre-verification gas, and the paymaster's 100,000 (its postOp 0).
    const gas = 3_000_000n + estimated.op.verificationGasLimit + estimated.op.preVerificationGas + 100_000n
    expect(over.refused).toEqual({ code: -32003, message: messages.overCap(gas, defaultMaxGas) })
  })

  it('refuses a tip over the sponsorship’s cap and a fee over the base fee’s multiple, and signs one at the ceiling', async () => {
    const { op } = await aa.draft([{ to: fresh(1) }])
    const estimated = await aa.estimated(op)
    if (!estimated.op) throw new Error(`no stub: ${estimated.refused?.message}`)
    // The base fee the API reads now: its brief cache of an earlier one has lapsed, and no block comes between.
    aa.clock.advance(Fees.baseFeeTtlMs)
    const { baseFeePerGas } = await aa.client.getBlock()
    const tipCap = parseGwei(String(defaultMaxPriorityFeePerGasGwei))
    const ceiling = (baseFeePerGas ?? 0n) * BigInt(defaultBaseFeeMultiplier) + tipCap
    const ask = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) =>
      aa.sponsor({ ...estimated.op, maxFeePerGas, maxPriorityFeePerGas })
    expect((await ask(ceiling, tipCap + 1n)).refused).toEqual({
      code: -32003,
      message:
        'The operation offers a tip of 2.000000001 gwei per gas, more than the 2 gwei its sponsorship allows',
    })
    expect((await ask(ceiling + 1n, tipCap)).refused).toEqual({
      code: -32003,
      message: messages.overFee(ceiling + 1n, ceiling),
    })
    expect((await ask(parseGwei('100'), 1n)).refused).toEqual({
      code: -32003,
      message: messages.overFee(parseGwei('100'), ceiling),
    })
    expect((await ask(ceiling, tipCap)).op?.paymasterData).toMatch(/^0x[0-9a-f]{258}$/)
  })

  it('names what is wrong with a malformed call', async () => {
    const { op } = await draft()
    const url = aa.routeUrl('paymaster')
    const badSender = await post(url, 'pm_getPaymasterData', [
      { ...op, sender: '0x12' },
      accountAbstraction.entryPoint08,
      '0x7a69',
    ])
    expect(badSender.body.error?.code).toBe(-32602)
    expect(badSender.body.error?.message).toMatch(/^Invalid params: userOperation\.sender/)
    const short = await post(url, 'pm_getPaymasterData', [op])
    expect(short.body.error).toEqual({ code: -32602, message: messages.invalidParams(messages.params) })
    const other = await post(url, 'pm_sponsorUserOperation', [op, accountAbstraction.entryPoint08])
    expect(other.body.error).toEqual({
      code: -32601,
      message: messages.unknownMethod('pm_sponsorUserOperation'),
    })
  })

  it('signs one operation: the same sponsorship on another call data fails the paymaster validation (AA34)', async () => {
    const { account, bundlerClient } = await aa.clientsFor()
    const prepared = await bundlerClient.prepareUserOperation({ calls: [{ to: fresh(0xa11ce), value: 0n }] })
    const tampered = { ...prepared, callData: await account.encodeCalls([{ to: fresh(0xb0b), value: 0n }]) }
    tampered.signature = await account.signUserOperation(tampered)
    await expect(bundlerClient.sendUserOperation(tampered)).rejects.toThrow(/AA34/)
    expect(await aa.client.getCode({ address: account.address })).toBeUndefined()
  }, 60_000)

  it('is read by browsers on the project’s origins only', async () => {
    const preflight = (origin: string) =>
      fetch(aa.routeUrl('paymaster'), {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      })
    expect((await preflight(Testing.shopOrigin)).headers.get('access-control-allow-origin')).toBe(
      Testing.shopOrigin,
    )
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull()
  })
})
