/**
 * An attacker holding a session key (a dApp's, leaked or malicious) tries to turn the session into the
 * account's ETH through gas: it signs operations that move no token, so they pass a spend check, and has
 * the account pay for them (no paymaster) at an absurd fee or with inflated gas limits, then bundles them
 * itself with its own address as the beneficiary the EntryPoint pays. Every attempt is checked on chain,
 * through the real EntryPoint v0.8: the account's ETH (its balance and its deposit at the EntryPoint) stays
 * where it was, and the attacker gains nothing. What the session does allow, the gas allowance granted with
 * it, is counted at each operation's maximum prefund.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  encodeFunctionData,
  type PublicClient,
  parseEther,
  type SignedAuthorization,
  toFunctionSelector,
} from 'viem'
import { entryPoint08Abi, type SmartAccount, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAbstraction, testTokenAddress } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import { testTokenAbi } from '../TestToken.ts'
import { airlockAccountAbi } from './AirlockAccountContract.ts'
import * as HandleOps from './HandleOps.ts'
import * as Testing from './testing.ts'

const transferSelector = toFunctionSelector('transfer(address,uint256)')
const token = { address: testTokenAddress, abi: testTokenAbi } as const
/** What the tests' sessions may spend on gas unless told: the modal's default. */
const allowance = parseEther('0.01')

describe('a session key and the account’s ETH', () => {
  let devnet: Devnet.Instance
  let chain: ReturnType<typeof Testing.chainOf>
  let client: PublicClient
  let account: SmartAccount
  const owner = privateKeyToAccount(generatePrivateKey())
  // The attacker bundles the key's operations itself and names itself the beneficiary.
  const attacker = privateKeyToAccount(generatePrivateKey())
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const transfer = (amount: bigint) => ({
    to: testTokenAddress,
    data: encodeFunctionData({ ...token, functionName: 'transfer', args: [recipient, amount] }),
  })
  const sessionOf = (on: Address, key: Address) =>
    client.readContract({ address: on, abi: airlockAccountAbi, functionName: 'sessionOf', args: [key] })

  /** What an address holds in ETH: its balance and its deposit at the EntryPoint, which pays its prefunds. */
  const ethOf = async (address: Address) =>
    (await client.getBalance({ address })) +
    (await client.readContract({
      address: accountAbstraction.entryPoint08,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [address],
    }))

  /** An operation of `on` signed by `key`, paid by the account (no paymaster) unless `sponsored`. */
  async function byKey(
    on: SmartAccount,
    key: PrivateKeyAccount,
    calls: readonly HandleOps.Call[],
    options: { change?: Partial<HandleOps.Operation>; sponsored?: boolean } = {},
  ) {
    const drafted = { ...(await HandleOps.draft(client, on, calls)), ...options.change }
    const operation = options.sponsored ? await HandleOps.sponsor(client, drafted) : drafted
    return { ...operation, signature: await key.sign({ hash: HandleOps.hashOf(operation, chain.chainId) }) }
  }

  /** Runs an operation, which must succeed; the attacker stands in for an honest bundler here. */
  async function run(operation: HandleOps.Operation, authorization?: SignedAuthorization) {
    const options = authorization ? { authorizationList: [authorization] } : {}
    const receipt = await HandleOps.submit(chain.wallet(attacker), [operation], options)
    expect(receipt.status).toBe('success')
  }

  /**
   * A fresh key granted ALT transfers up to 10 ALT for an hour and `gasAllowance` wei of gas on `on`, by
   * the owner's sponsored operation (with the EIP-7702 authorization, the first time a 7702 account is used).
   */
  async function granted(
    on: SmartAccount = account,
    gasAllowance = allowance,
    authorization?: SignedAuthorization,
  ): Promise<PrivateKeyAccount> {
    const key = privateKeyToAccount(generatePrivateKey())
    const validUntil = Number((await client.getBlock()).timestamp) + 3600
    const call = {
      to: on.address,
      data: encodeFunctionData({
        abi: airlockAccountAbi,
        functionName: 'grantSession',
        args: [key.address, testTokenAddress, transferSelector, parseEther('10'), validUntil, gasAllowance],
      }),
    }
    const drafted = {
      ...(await HandleOps.draft(client, on, [call])),
      ...(authorization ? { authorization } : {}),
    }
    const sponsored = await HandleOps.sponsor(client, drafted)
    await run({ ...sponsored, signature: await on.signUserOperation(sponsored) }, authorization)
    return key
  }

  /**
   * The attacker bundles the operation with itself as the beneficiary: the transaction reverts (the
   * EntryPoint refuses the operation, AA24, as its simulation says), the account's ETH stays, and the
   * attacker is only out of its own transaction's fee.
   */
  async function expectNothingDrained(operation: HandleOps.Operation, gas = 3_000_000n) {
    const from = operation.sender
    const [accountBefore, attackerBefore] = [
      await ethOf(from),
      await client.getBalance({ address: attacker.address }),
    ]
    const receipt = await HandleOps.submit(chain.wallet(attacker), [operation], { gas })
    expect(await ethOf(from)).toBe(accountBefore)
    expect(await client.getBalance({ address: attacker.address })).toBeLessThan(attackerBefore)
    expect(receipt.status).toBe('reverted')
    await expect(HandleOps.simulate(client, [operation], attacker.address)).rejects.toThrow(/AA24/)
  }

  /** `byKey`'s options for an operation offering `fee` a gas, all of it as the tip to the beneficiary. */
  const fees = (fee: bigint) => ({ change: { maxFeePerGas: fee, maxPriorityFeePerGas: fee } })

  /** The gas limits of `on`'s operations (as `HandleOps.draft` sets them) summed: times a fee, their prefund. */
  async function gasOf(on: SmartAccount) {
    const drafted = await HandleOps.draft(client, on, [transfer(0n)])
    return drafted.callGasLimit + drafted.verificationGasLimit + drafted.preVerificationGas
  }

  beforeAll(async () => {
    devnet = await Devnet.start({ ports: [0, 0] })
    chain = Testing.chainOf(devnet)
    client = chain.client
    await chain.testClient.setBalance({ address: attacker.address, value: parseEther('100') })
    account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    await chain.fund(account.address, parseEther('1000'))
    // The owner's first operation deploys the account; it then holds 1 ETH.
    await granted()
    await chain.testClient.setBalance({ address: account.address, value: parseEther('1') })
  })
  afterAll(() => devnet?.stop())

  it('refuses an operation paying an absurd maxFeePerGas from the account, with no paymaster', async () => {
    const key = await granted()
    // The prefund is then the whole balance: the beneficiary would be paid nearly all of it.
    const fee = (await client.getBalance({ address: account.address })) / (await gasOf(account))
    await expectNothingDrained(await byKey(account, key, [transfer(0n)], fees(fee)))
    expect((await sessionOf(account.address, key.address)).gasSpent).toBe(0n)
  })

  it('refuses inflated gas limits paid by the account at the chain’s own fee', async () => {
    const key = await granted()
    // preVerificationGas is charged in full whatever runs; unused call gas costs a 10% penalty. At least 1 gwei
    // (the tip) a gas, 14M gas is over the 0.01 ETH allowance.
    const change = {
      preVerificationGas: 10_000_000n,
      verificationGasLimit: 2_000_000n,
      callGasLimit: 2_000_000n,
    }
    await expectNothingDrained(await byKey(account, key, [transfer(0n)], { change }), 6_000_000n)
  })

  it('refuses operations that move nothing once the spend limit is used up, paid or sponsored', async () => {
    const key = await granted()
    await run(await byKey(account, key, [transfer(parseEther('10'))], { sponsored: true }))
    expect((await sessionOf(account.address, key.address)).spent).toBe(parseEther('10'))
    const sponsored = await byKey(account, key, [transfer(0n)], { sponsored: true })
    await expect(HandleOps.simulate(client, [sponsored], attacker.address)).rejects.toThrow(/AA24/)
    await expectNothingDrained(await byKey(account, key, [transfer(0n)]))
  })

  it('counts each operation the account pays at its maximum prefund, and refuses one over what is left', async () => {
    const key = await granted()
    const gas = await gasOf(account)
    // A fee that makes the first prefund about 60% of the allowance, paid by the account.
    const fee = (allowance * 6n) / 10n / gas
    const before = await ethOf(account.address)
    await run(await byKey(account, key, [transfer(parseEther('1'))], fees(fee)))
    const { gasSpent } = await sessionOf(account.address, key.address)
    expect(gasSpent).toBe(gas * fee)
    // The account paid the gas really used (and the beneficiary got it): more than nothing, at most the prefund.
    const cost = before - (await ethOf(account.address))
    expect(cost).toBeGreaterThan(0n)
    expect(cost).toBeLessThanOrEqual(gasSpent)
    // One wei a gas more than what is left covers is refused; the most that fits passes, and is counted.
    const left = allowance - gasSpent
    await expectNothingDrained(await byKey(account, key, [transfer(1n)], fees(left / gas + 1n)))
    await run(await byKey(account, key, [transfer(1n)], fees(left / gas)))
    expect((await sessionOf(account.address, key.address)).gasSpent).toBe(gasSpent + (left / gas) * gas)
  })

  it('lets a paymaster pay without a gas allowance: the account’s ETH and the allowance stay', async () => {
    const key = await granted(account, 0n)
    const before = await ethOf(account.address)
    await run(await byKey(account, key, [transfer(parseEther('1'))], { sponsored: true }))
    expect(await ethOf(account.address)).toBe(before)
    expect(await sessionOf(account.address, key.address)).toMatchObject({
      spent: parseEther('1'),
      gasSpent: 0n,
    })
    await expectNothingDrained(await byKey(account, key, [transfer(1n)]))
  })

  it('holds on an EOA delegated by EIP-7702 to Airlock7702Account, which shares the module; no init call', async () => {
    const eoa = privateKeyToAccount(generatePrivateKey())
    const delegated = await toSimple7702SmartAccount({
      client,
      owner: eoa,
      implementation: accountAbstraction.account7702,
    })
    const authorization = await eoa.signAuthorization({
      contractAddress: accountAbstraction.account7702,
      chainId: chain.chainId,
      nonce: 0,
    })
    const key = await granted(delegated, allowance, authorization)
    await chain.testClient.setBalance({ address: eoa.address, value: parseEther('1') })
    const fee = parseEther('1') / (await gasOf(delegated))
    await expectNothingDrained(await byKey(delegated, key, [transfer(0n)], fees(fee)))
    // EIP-7702 init code with data has the EntryPoint call the account before validating: never the key's.
    const init = {
      factory: '0x7702000000000000000000000000000000000000',
      factoryData: encodeFunctionData({
        abi: airlockAccountAbi,
        functionName: 'sessionOf',
        args: [key.address],
      }),
      authorization,
    } as const
    const withInit = await byKey(delegated, key, [transfer(1n)], { change: init, sponsored: true })
    await expect(HandleOps.simulate(client, [withInit], attacker.address)).rejects.toThrow(/AA24/)
  })
})
