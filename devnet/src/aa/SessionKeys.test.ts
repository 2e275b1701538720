import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  parseEther,
  parseEventLogs,
  toFunctionSelector,
} from 'viem'
import { type SmartAccount, toSimple7702SmartAccount } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountAbstraction, testTokenAddress, testUsdAddress } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import { testTokenAbi } from '../TestToken.ts'
import { airlockAccountAbi } from './AirlockAccountContract.ts'
import * as HandleOps from './HandleOps.ts'
import * as Testing from './testing.ts'

const transferSelector = toFunctionSelector('transfer(address,uint256)')
const limit = parseEther('10')

describe('session keys of an AirlockAccount', () => {
  let devnet: Devnet.Instance
  let chain: ReturnType<typeof Testing.chainOf>
  let client: PublicClient
  let account: SmartAccount
  const relayer = privateKeyToAccount(generatePrivateKey())
  const owner = privateKeyToAccount(generatePrivateKey())
  // The dApp's key: it signs ops of its own, never the owner's.
  const sessionKey = privateKeyToAccount(generatePrivateKey())
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const token = { address: testTokenAddress, abi: testTokenAbi } as const
  const balanceOf = (address: Address) =>
    client.readContract({ ...token, functionName: 'balanceOf', args: [address] })
  const transfer = (amount: bigint, address: Address = testTokenAddress) => ({
    to: address,
    data: encodeFunctionData({ ...token, functionName: 'transfer', args: [recipient, amount] }),
  })
  const self = () => ({ address: account.address, abi: airlockAccountAbi }) as const
  const sessionOf = (key: Address) =>
    client.readContract({ ...self(), functionName: 'sessionOf', args: [key] })
  /**
   * A call of the account to itself granting `key` a session: ALT transfers up to 10 ALT unless told, with
   * no gas allowance (the paymaster pays for these tests' operations; `SessionGas.test.ts` has the rest).
   */
  const grant = (
    key: Address,
    validUntil: number,
    session: { target?: Address; selector?: Hex; limit?: bigint; on?: Address } = {},
  ) => ({
    to: session.on ?? account.address,
    data: encodeFunctionData({
      ...self(),
      functionName: 'grantSession',
      args: [
        key,
        session.target ?? testTokenAddress,
        session.selector ?? transferSelector,
        session.limit ?? limit,
        validUntil,
        0n,
      ],
    }),
  })
  const now = async () => Number((await client.getBlock()).timestamp)

  /** A sponsored op making `calls`, signed by the owner, or by `key` (raw ECDSA over the userOpHash). */
  async function operation(
    calls: readonly HandleOps.Call[],
    key?: typeof sessionKey,
    on: SmartAccount = account,
  ) {
    const sponsored = await HandleOps.sponsor(client, await HandleOps.draft(client, on, calls))
    const signature = key
      ? await key.sign({ hash: HandleOps.hashOf(sponsored, chain.chainId) })
      : await on.signUserOperation(sponsored)
    return { ...sponsored, signature }
  }

  async function run(calls: readonly HandleOps.Call[], key?: typeof sessionKey) {
    const receipt = await HandleOps.submit(chain.wallet(relayer), [await operation(calls, key)])
    expect(receipt.status).toBe('success')
    // The account's own events: the first op also initializes it.
    return parseEventLogs({ abi: airlockAccountAbi, logs: receipt.logs }).filter(
      (log) => log.eventName === 'SessionGranted' || log.eventName === 'SessionRevoked',
    )
  }

  /** Expects the EntryPoint to refuse the op with `reason`, in simulation and on-chain, moving no token. */
  async function expectRefused(calls: readonly HandleOps.Call[], key: typeof sessionKey, reason: RegExp) {
    const op = await operation(calls, key)
    const before = [await balanceOf(account.address), await balanceOf(recipient)]
    await expect(HandleOps.simulate(client, [op], relayer.address)).rejects.toThrow(reason)
    const receipt = await HandleOps.submit(chain.wallet(relayer), [op], { gas: 2_000_000n })
    expect(receipt.status).toBe('reverted')
    expect([await balanceOf(account.address), await balanceOf(recipient)]).toEqual(before)
  }

  beforeAll(async () => {
    devnet = await Devnet.start({ ports: [0, 0] })
    chain = Testing.chainOf(devnet)
    client = chain.client
    await chain.testClient.setBalance({ address: relayer.address, value: parseEther('10') })
    account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
    })
    await chain.fund(account.address, parseEther('100'))
  })
  afterAll(() => devnet?.stop())

  it('is granted by the owner: ALT transfers, up to 10 ALT, for an hour', async () => {
    const validUntil = (await now()) + 3600
    // The account's first op deploys it and grants the session.
    const [event] = await run([grant(sessionKey.address, validUntil)])
    expect(event).toMatchObject({
      eventName: 'SessionGranted',
      args: {
        key: sessionKey.address,
        target: testTokenAddress,
        selector: transferSelector,
        limit,
        validUntil,
      },
    })
    expect(await sessionOf(sessionKey.address)).toEqual({
      target: testTokenAddress,
      selector: transferSelector,
      validUntil,
      limit,
      spent: 0n,
      gasAllowance: 0n,
      gasSpent: 0n,
    })
  })

  it('lets the session key transfer 6 ALT without the owner', async () => {
    await run([transfer(parseEther('6'))], sessionKey)
    expect(await balanceOf(recipient)).toBe(parseEther('6'))
    expect((await sessionOf(sessionKey.address)).spent).toBe(parseEther('6'))
  })

  it('refuses a second 6 ALT on-chain (AA24): over the limit, nothing moves', async () => {
    await expectRefused([transfer(parseEther('6'))], sessionKey, /AA24 signature error/)
    expect((await sessionOf(sessionKey.address)).spent).toBe(parseEther('6'))
  })

  it('counts every call of a batch against the limit', async () => {
    await expectRefused([transfer(parseEther('3')), transfer(parseEther('3'))], sessionKey, /AA24/)
    await run([transfer(parseEther('2')), transfer(parseEther('2'))], sessionKey)
    expect(await balanceOf(recipient)).toBe(parseEther('10'))
    expect((await sessionOf(sessionKey.address)).spent).toBe(limit)
  })

  it('refuses a call to another contract or another function', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    await run([grant(other.address, (await now()) + 3600)])
    await expectRefused([transfer(1n, testUsdAddress)], other, /AA24/)
    const approve = encodeFunctionData({ ...token, functionName: 'approve', args: [recipient, 1n] })
    await expectRefused([{ to: testTokenAddress, data: approve }], other, /AA24/)
    await expectRefused([transfer(1n), { to: recipient, value: 0n }], other, /AA24/)
  })

  it('cannot grant or revoke a session, through execute or directly', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    await run([grant(other.address, (await now()) + 3600)])
    const escalate = grant(other.address, (await now()) + 7200)
    await expectRefused([escalate], other, /AA24/)
    // An op whose callData is grantSession itself, not execute: the EntryPoint would call the account.
    const direct = await HandleOps.sponsor(client, {
      ...(await HandleOps.draft(client, account, [transfer(1n)])),
      callData: escalate.data,
    })
    const signed = {
      ...direct,
      signature: await other.sign({ hash: HandleOps.hashOf(direct, chain.chainId) }),
    }
    await expect(HandleOps.simulate(client, [signed], relayer.address)).rejects.toThrow(/AA24/)
    expect((await sessionOf(other.address)).limit).toBe(limit)
  })

  it('refuses a revoked session', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    await run([grant(other.address, (await now()) + 3600)])
    await run([transfer(1n)], other)
    const revoke = encodeFunctionData({ ...self(), functionName: 'revokeSession', args: [other.address] })
    const [event] = await run([{ to: account.address, data: revoke }])
    expect(event).toMatchObject({ eventName: 'SessionRevoked', args: { key: other.address } })
    expect((await sessionOf(other.address)).validUntil).toBe(0)
    await expectRefused([transfer(1n)], other, /AA24/)
  })

  it('checks ERC-1271 signatures: the owner’s are the account’s, a session key’s are not', async () => {
    const hash: Hex = `0x${'5a'.repeat(32)}`
    const check = (signature: Hex) =>
      client.readContract({ ...self(), functionName: 'isValidSignature', args: [hash, signature] })
    expect(await check(await owner.sign({ hash }))).toBe('0x1626ba7e')
    expect(await check(await sessionKey.sign({ hash }))).toBe('0xffffffff')
  })

  it('limits plain ETH transfers to one address when the session names no function', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    const oneEth = { target: recipient, selector: '0x00000000', limit: parseEther('1') } as const
    await run([grant(other.address, (await now()) + 3600, oneEth)])
    await chain.testClient.setBalance({ address: account.address, value: parseEther('2') })
    const before = await client.getBalance({ address: recipient })
    await run([{ to: recipient, value: parseEther('0.6') }], other)
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseEther('0.6'))
    await expectRefused([{ to: recipient, value: parseEther('0.6') }], other, /AA24/)
    await expectRefused([{ to: recipient, value: 1n, data: '0x12345678' }], other, /AA24/)
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseEther('0.6'))
  })

  it('works the same on an EOA delegated by EIP-7702 to Airlock7702Account', async () => {
    const eoa = privateKeyToAccount(generatePrivateKey())
    const delegated = await toSimple7702SmartAccount({
      client,
      owner: eoa,
      implementation: accountAbstraction.account7702,
    })
    await chain.fund(eoa.address, parseEther('20'))
    const authorization = await eoa.signAuthorization({
      contractAddress: accountAbstraction.account7702,
      chainId: chain.chainId,
      nonce: 0,
    })
    const key = privateKeyToAccount(generatePrivateKey())
    const granting = grant(key.address, (await now()) + 3600, { on: eoa.address })
    const draft = { ...(await HandleOps.draft(client, delegated, [granting])), authorization }
    const sponsored = await HandleOps.sponsor(client, draft)
    const signed = { ...sponsored, signature: await delegated.signUserOperation(sponsored) }
    const granted = await HandleOps.submit(chain.wallet(relayer), [signed], {
      authorizationList: [authorization],
    })
    expect(granted.status).toBe('success')

    const transferred = await HandleOps.submit(chain.wallet(relayer), [
      await operation([transfer(parseEther('6'))], key, delegated),
    ])
    expect(transferred.status).toBe('success')
    expect(await balanceOf(eoa.address)).toBe(parseEther('14'))
    const overLimit = await operation([transfer(parseEther('6'))], key, delegated)
    await expect(HandleOps.simulate(client, [overLimit], relayer.address)).rejects.toThrow(/AA24/)
  })

  it('refuses an expired session (AA22): the EntryPoint enforces its validUntil', async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    await run([grant(other.address, (await now()) + 60)])
    await run([transfer(1n)], other)
    await chain.testClient.increaseTime({ seconds: 120 })
    await chain.testClient.mine({ blocks: 1 })
    await expectRefused([transfer(1n)], other, /AA22 expired or not due/)
  })
})
