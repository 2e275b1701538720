/**
 * An attacker holding a session key (a dApp's, leaked or malicious) tries to turn the session into the
 * account's ETH through gas: it signs operations that move no token, so they pass a spend check, and has
 * the account pay for them (no paymaster) at an absurd fee or with inflated gas limits, then bundles them
 * itself with its own address as the beneficiary the EntryPoint pays. Every attempt is checked on chain,
 * through the real EntryPoint v0.8: the account's ETH (its balance and its deposit at the EntryPoint) stays
 * where it was, and the attacker gains nothing.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  http,
  type PublicClient,
  parseEther,
  toFunctionSelector,
} from 'viem'
import { entryPoint08Abi, type SmartAccount, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import { accountAbstraction, testTokenAddress } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import { testTokenAbi } from '../TestToken.ts'
import { airlockAccountAbi } from './AirlockAccountContract.ts'
import * as HandleOps from './HandleOps.ts'

const transferSelector = toFunctionSelector('transfer(address,uint256)')
const token = { address: testTokenAddress, abi: testTokenAbi } as const

describe('a session key and the account’s ETH', () => {
  let devnet: Devnet.Instance
  let client: PublicClient
  let account: SmartAccount
  const owner = privateKeyToAccount(generatePrivateKey())
  const sessionKey = privateKeyToAccount(generatePrivateKey())
  // The attacker bundles the key's operations itself and names itself the beneficiary.
  const attacker = privateKeyToAccount(generatePrivateKey())
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const chainId = () => devnet.chains[0].chainId
  const wallet = (signer: PrivateKeyAccount) =>
    createWalletClient({
      account: signer,
      chain: devnet.chains[0].chain,
      transport: http(devnet.chains[0].rpcUrl),
    })
  const testClient = () =>
    createTestClient({
      mode: 'anvil',
      chain: devnet.chains[0].chain,
      transport: http(devnet.chains[0].rpcUrl),
    })

  const transfer = (amount: bigint) => ({
    to: testTokenAddress,
    data: encodeFunctionData({ ...token, functionName: 'transfer', args: [recipient, amount] }),
  })
  /** The account's own call granting `key` ALT transfers up to 10 ALT for an hour. */
  const grant = async (on: Address, key: Address) => ({
    to: on,
    data: encodeFunctionData({
      abi: airlockAccountAbi,
      functionName: 'grantSession',
      args: [
        key,
        testTokenAddress,
        transferSelector,
        parseEther('10'),
        Number((await client.getBlock()).timestamp) + 3600,
      ],
    }),
  })

  /** What the account holds in ETH: its balance and its deposit at the EntryPoint, which pays its prefunds. */
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
    calls: readonly HandleOps.Call[],
    options: { change?: Partial<HandleOps.Operation>; sponsored?: boolean; key?: PrivateKeyAccount } = {},
  ) {
    const drafted = { ...(await HandleOps.draft(client, on, calls)), ...options.change }
    const operation = options.sponsored ? await HandleOps.sponsor(client, drafted) : drafted
    const signer = options.key ?? sessionKey
    return { ...operation, signature: await signer.sign({ hash: HandleOps.hashOf(operation, chainId()) }) }
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
    const receipt = await HandleOps.submit(wallet(attacker), [operation], { gas })
    expect(await ethOf(from)).toBe(accountBefore)
    expect(await client.getBalance({ address: attacker.address })).toBeLessThan(attackerBefore)
    expect(receipt.status).toBe('reverted')
    await expect(HandleOps.simulate(client, [operation], attacker.address)).rejects.toThrow(/AA24/)
  }

  /** Runs the owner's (or the key's, sponsored) operation, which must succeed. */
  async function run(operation: HandleOps.Operation) {
    const receipt = await HandleOps.submit(wallet(attacker), [operation])
    expect(receipt.status).toBe('success')
  }

  beforeAll(async () => {
    devnet = await Devnet.start({ ports: [0, 0] })
    const { chain, rpcUrl } = devnet.chains[0]
    client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 })
    await testClient().setBalance({ address: attacker.address, value: parseEther('10') })
    account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    const first = Accounts.all()[0]
    if (!first) throw new Error('no account 0')
    await client.waitForTransactionReceipt({
      hash: await wallet(privateKeyToAccount(first.privateKey)).writeContract({
        ...token,
        functionName: 'transfer',
        args: [account.address, parseEther('100')],
      }),
    })
    // The owner deploys the account and grants the session, sponsored; the account then holds 1 ETH.
    const granting = await HandleOps.sponsor(
      client,
      await HandleOps.draft(client, account, [await grant(account.address, sessionKey.address)]),
    )
    await run({ ...granting, signature: await account.signUserOperation(granting) })
    await testClient().setBalance({ address: account.address, value: parseEther('1') })
  })
  afterAll(() => devnet?.stop())

  it('refuses an operation paying an absurd maxFeePerGas from the account, with no paymaster', async () => {
    const drafted = await HandleOps.draft(client, account, [transfer(0n)])
    const gas = drafted.callGasLimit + drafted.verificationGasLimit + drafted.preVerificationGas
    // The prefund is then the whole balance: the beneficiary would be paid nearly all of it.
    const fee = (await client.getBalance({ address: account.address })) / gas
    await expectNothingDrained(
      await byKey(account, [transfer(0n)], { change: { maxFeePerGas: fee, maxPriorityFeePerGas: fee } }),
    )
  })

  it('refuses inflated gas limits paid by the account at the chain’s own fee', async () => {
    // preVerificationGas is charged in full whatever runs; unused call gas costs a 10% penalty.
    const inflated = {
      preVerificationGas: 5_000_000n,
      verificationGasLimit: 2_000_000n,
      callGasLimit: 2_000_000n,
    }
    await expectNothingDrained(await byKey(account, [transfer(0n)], { change: inflated }), 6_000_000n)
  })

  it('refuses operations that move nothing once the spend limit is used up, paid or sponsored', async () => {
    await run(await byKey(account, [transfer(parseEther('10'))], { sponsored: true }))
    expect(await client.readContract({ ...token, functionName: 'balanceOf', args: [recipient] })).toBe(
      parseEther('10'),
    )
    const sponsored = await byKey(account, [transfer(0n)], { sponsored: true })
    await expect(HandleOps.simulate(client, [sponsored], attacker.address)).rejects.toThrow(/AA24/)
    await expectNothingDrained(await byKey(account, [transfer(0n)]))
  })

  it('holds on an EOA delegated by EIP-7702 to Airlock7702Account, which shares the session module', async () => {
    const eoa = privateKeyToAccount(generatePrivateKey())
    const delegated = await toSimple7702SmartAccount({
      client,
      owner: eoa,
      implementation: accountAbstraction.account7702,
    })
    const authorization = await eoa.signAuthorization({
      contractAddress: accountAbstraction.account7702,
      chainId: chainId(),
      nonce: 0,
    })
    const key = privateKeyToAccount(generatePrivateKey())
    const granting = await HandleOps.sponsor(client, {
      ...(await HandleOps.draft(client, delegated, [await grant(eoa.address, key.address)])),
      authorization,
    })
    const signed = { ...granting, signature: await delegated.signUserOperation(granting) }
    const receipt = await HandleOps.submit(wallet(attacker), [signed], { authorizationList: [authorization] })
    expect(receipt.status).toBe('success')
    await testClient().setBalance({ address: eoa.address, value: parseEther('1') })
    const fee = parseEther('1') / 860_000n
    await expectNothingDrained(
      await byKey(delegated, [transfer(0n)], {
        key,
        change: { maxFeePerGas: fee, maxPriorityFeePerGas: fee },
      }),
    )
  })
})
