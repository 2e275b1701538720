import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
  serializeErc6492Signature,
} from 'viem'
import { entryPoint08Abi, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import { accountAbstraction, testTokenAddress } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import { testTokenAbi } from '../TestToken.ts'
import { airlock7702AccountAbi } from './Airlock7702AccountContract.ts'
import { airlockAccountAbi } from './AirlockAccountContract.ts'
import { airlockAccountFactoryAbi } from './AirlockAccountFactoryContract.ts'
import * as HandleOps from './HandleOps.ts'

describe('smart accounts on EntryPoint v0.8, sponsored by the paymaster', () => {
  let devnet: Devnet.Instance
  let client: PublicClient
  // A relayer standing in for the bundler: it sends handleOps and collects the fees.
  const relayer = privateKeyToAccount(generatePrivateKey())
  const sender = () =>
    createWalletClient({
      account: relayer,
      chain: devnet.chains[0].chain,
      transport: http(devnet.chains[0].rpcUrl),
    })

  beforeAll(async () => {
    devnet = await Devnet.start({ ports: [0, 0] })
    const { chain, rpcUrl } = devnet.chains[0]
    client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 })
    await createTestClient({ mode: 'anvil', chain, transport: http(rpcUrl) }).setBalance({
      address: relayer.address,
      value: parseEther('10'),
    })
  })
  afterAll(() => devnet?.stop())

  const token = { address: testTokenAddress, abi: testTokenAbi } as const
  const balanceOf = (address: `0x${string}`) =>
    client.readContract({ ...token, functionName: 'balanceOf', args: [address] })

  /** Sends `amount` ALT from account 0, which holds a million. */
  async function fund(to: `0x${string}`, amount: bigint) {
    const first = Accounts.all()[0]
    if (!first) throw new Error('no account 0')
    const wallet = createWalletClient({
      account: privateKeyToAccount(first.privateKey),
      chain: devnet.chains[0].chain,
      transport: http(devnet.chains[0].rpcUrl),
    })
    const hash = await wallet.writeContract({ ...token, functionName: 'transfer', args: [to, amount] })
    await client.waitForTransactionReceipt({ hash })
  }

  /** An approval of `spender` for `amount`, then a transfer of `amount` to `to`: one atomic batch. */
  const approveAndTransfer = (spender: `0x${string}`, to: `0x${string}`, amount: bigint) => [
    {
      to: testTokenAddress,
      data: encodeFunctionData({ ...token, functionName: 'approve', args: [spender, amount] }),
    },
    {
      to: testTokenAddress,
      data: encodeFunctionData({ ...token, functionName: 'transfer', args: [to, amount] }),
    },
  ]

  it('deploys a counterfactual AirlockAccount with zero ETH on its first op and runs a sponsored batch', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    const predicted = await client.readContract({
      address: accountAbstraction.accountFactory,
      abi: airlockAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    expect(account.address).toBe(predicted)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
    expect(await client.getBalance({ address: account.address })).toBe(0n)

    await fund(account.address, parseEther('5'))
    const spender = privateKeyToAccount(generatePrivateKey()).address
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const draft = await HandleOps.draft(
      client,
      account,
      approveAndTransfer(spender, recipient, parseEther('2')),
    )
    expect(draft.factory).toBe(accountAbstraction.accountFactory)
    const sponsored = await HandleOps.sponsor(client, draft)
    const operation = { ...sponsored, signature: await account.signUserOperation(sponsored) }
    const paymasterDeposit = () =>
      client.readContract({
        address: accountAbstraction.entryPoint08,
        abi: entryPoint08Abi,
        functionName: 'balanceOf',
        args: [accountAbstraction.paymaster],
      })
    const depositBefore = await paymasterDeposit()

    const receipt = await HandleOps.submit(sender(), [operation])

    expect(receipt.status).toBe('success')
    const [event] = parseEventLogs({
      abi: entryPoint08Abi,
      logs: receipt.logs,
      eventName: 'UserOperationEvent',
    })
    expect(event?.args).toMatchObject({
      sender: account.address,
      paymaster: accountAbstraction.paymaster,
      success: true,
    })
    expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
    const owned = { address: account.address, abi: airlockAccountAbi } as const
    expect(await client.readContract({ ...owned, functionName: 'owner' })).toBe(owner.address)
    expect(await balanceOf(recipient)).toBe(parseEther('2'))
    expect(await balanceOf(account.address)).toBe(parseEther('3'))
    const allowance = await client.readContract({
      ...token,
      functionName: 'allowance',
      args: [account.address, spender],
    })
    expect(allowance).toBe(parseEther('2'))
    // The paymaster paid for the gas; the account still holds no ETH.
    expect(await client.getBalance({ address: account.address })).toBe(0n)
    expect(depositBefore - (await paymasterDeposit())).toBe(event?.args.actualGasCost)
  })

  it('refuses an op whose paymaster signature is not the signer’s (AA34)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    const draft = await HandleOps.draft(client, account, [{ to: owner.address, value: 0n }])
    const sponsored = await HandleOps.sponsor(client, draft, { signerKey: generatePrivateKey() })
    const operation = { ...sponsored, signature: await account.signUserOperation(sponsored) }

    await expect(HandleOps.simulate(client, [operation], relayer.address)).rejects.toThrow(
      /AA34 signature error/,
    )
    const receipt = await HandleOps.submit(sender(), [operation], { gas: 2_000_000n })
    expect(receipt.status).toBe('reverted')
    expect(await client.getCode({ address: account.address })).toBeUndefined()
  })

  it('verifies an undeployed account’s signature by ERC-6492: the check deploys it through its factory', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    const { factory, factoryData } = await account.getFactoryArgs()
    if (!factory || !factoryData) throw new Error('a counterfactual account has factory args')
    const message = 'localhost wants you to sign in with your Ethereum account'
    const wrap = async (signer: typeof owner) =>
      serializeErc6492Signature({
        address: factory,
        data: factoryData,
        signature: await signer.signMessage({ message }),
      })

    expect(
      await client.verifyMessage({ address: account.address, message, signature: await wrap(owner) }),
    ).toBe(true)
    const stranger = privateKeyToAccount(generatePrivateKey())
    expect(
      await client.verifyMessage({ address: account.address, message, signature: await wrap(stranger) }),
    ).toBe(false)
    // Verified in a call: nothing was deployed.
    expect(await client.getCode({ address: account.address })).toBeUndefined()
  })

  it('runs a sponsored batch from an EOA with zero ETH upgraded by EIP-7702 to Airlock7702Account', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toSimple7702SmartAccount({
      client,
      owner,
      implementation: accountAbstraction.account7702,
    })
    expect(account.address).toBe(owner.address)
    await fund(owner.address, parseEther('5'))
    // The EOA signs the delegation; the relayer's transaction carries it, as a bundler carries eip7702Auth.
    const authorization = await owner.signAuthorization({
      contractAddress: accountAbstraction.account7702,
      chainId: devnet.chains[0].chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
    })
    const spender = privateKeyToAccount(generatePrivateKey()).address
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const calls = approveAndTransfer(spender, recipient, parseEther('2'))
    // The op's initCode is the 0x7702 marker: its hash covers the implementation the authorization names.
    const draft = { ...(await HandleOps.draft(client, account, calls)), authorization }
    expect(draft.factory).toBe('0x7702')
    const sponsored = await HandleOps.sponsor(client, draft)
    const operation = { ...sponsored, signature: await account.signUserOperation(sponsored) }

    const receipt = await HandleOps.submit(sender(), [operation], { authorizationList: [authorization] })

    expect(receipt.status).toBe('success')
    const [event] = parseEventLogs({
      abi: entryPoint08Abi,
      logs: receipt.logs,
      eventName: 'UserOperationEvent',
    })
    expect(event?.args).toMatchObject({
      sender: owner.address,
      paymaster: accountAbstraction.paymaster,
      success: true,
    })
    // An EIP-7702 delegation designator: 0xef0100 ‖ the implementation.
    expect(await client.getCode({ address: owner.address })).toBe(
      `0xef0100${accountAbstraction.account7702.slice(2).toLowerCase()}`,
    )
    expect(await balanceOf(recipient)).toBe(parseEther('2'))
    expect(await balanceOf(owner.address)).toBe(parseEther('3'))
    const allowance = await client.readContract({
      ...token,
      functionName: 'allowance',
      args: [owner.address, spender],
    })
    expect(allowance).toBe(parseEther('2'))
    expect(await client.getBalance({ address: owner.address })).toBe(0n)
    const delegated = { address: owner.address, abi: airlock7702AccountAbi } as const
    const hash = `0x${'ab'.repeat(32)}` as const
    const signature = await owner.sign({ hash })
    expect(
      await client.readContract({ ...delegated, functionName: 'isValidSignature', args: [hash, signature] }),
    ).toBe('0x1626ba7e')
  })
})
