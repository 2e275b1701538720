import { Siwx } from '@airlock/bridge-protocol'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  type SignedAuthorizationList,
  toFunctionSelector,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as HandleOps from '../../../../devnet/src/aa/HandleOps.ts'
import { Accounts, accountAbstraction, Devnet, testTokenAddress } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type * as Database from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { type Answer, calls, configOf, ether, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import { sessionKeysAbi } from './OnChain.ts'

const texts = Contract.smartSessionTexts
const A = 'eip155:31337'
const transfer = toFunctionSelector('transfer(address,uint256)')

let devnet: Devnet.Instance
let config: Config.Config

beforeAll(async () => {
  const ports = [await closedPort(), await closedPort()] as const
  devnet = await Devnet.start({ ports })
  config = configOf([
    ...devnet.chains.map((running) => ({
      id: running.caipNetworkId,
      name: running.chain.name,
      rpcUrl: running.rpcUrl,
      nativeCurrency: ether,
    })),
    // A chain whose RPC nobody answers.
    {
      id: 'eip155:999',
      name: 'Down',
      rpcUrl: `http://127.0.0.1:${await closedPort()}`,
      nativeCurrency: ether,
    },
  ])
}, 120_000)
afterAll(() => devnet?.stop())

const chain = () => devnet.chains[0].chain
const publicClient = () => createPublicClient({ chain: chain(), transport: http(devnet.chains[0].rpcUrl) })
const testClient = () =>
  createTestClient({ chain: chain(), mode: 'anvil', transport: http(devnet.chains[0].rpcUrl) })

/**
 * A fresh EOA delegated (EIP-7702) to Airlock7702Account: it is its own account, so its own transactions may
 * grant and revoke sessions, and its EIP-191 signatures are the account's.
 */
async function account7702(): Promise<PrivateKeyAccount> {
  const owner = privateKeyToAccount(generatePrivateKey())
  await testClient().setBalance({ address: owner.address, value: parseEther('1') })
  const wallet = createWalletClient({
    account: owner,
    chain: chain(),
    transport: http(devnet.chains[0].rpcUrl),
  })
  const authorization = await wallet.signAuthorization({
    contractAddress: accountAbstraction.account7702,
    executor: 'self',
  })
  await send(
    owner,
    encodeFunctionData({ abi: sessionKeysAbi, functionName: 'revokeSession', args: [owner.address] }),
    [authorization],
  )
  return owner
}

async function send(owner: PrivateKeyAccount, data: Hex, authorizationList?: SignedAuthorizationList) {
  const wallet = createWalletClient({
    account: owner,
    chain: chain(),
    transport: http(devnet.chains[0].rpcUrl),
  })
  const hash = await wallet.sendTransaction({
    to: owner.address,
    data,
    ...(authorizationList ? { authorizationList } : {}),
  })
  const receipt = await publicClient().waitForTransactionReceipt({ hash, pollingInterval: 50 })
  expect(receipt.status).toBe('success')
}

async function grant(
  owner: PrivateKeyAccount,
  key: Address,
  options: { limit?: bigint; validFor?: number; gasAllowance?: bigint } = {},
) {
  const block = await publicClient().getBlock()
  const validUntil = Number(block.timestamp) + (options.validFor ?? 3600)
  await send(
    owner,
    encodeFunctionData({
      abi: sessionKeysAbi,
      functionName: 'grantSession',
      args: [
        key,
        testTokenAddress,
        transfer,
        options.limit ?? parseEther('10'),
        validUntil,
        options.gasAllowance ?? parseEther('0.01'),
      ],
    }),
  )
  return { validUntil, pci: Contract.encodePci({ account: owner.address, key, chainId: 31337 }) }
}

describe('pci', () => {
  it('is abi.encode(account, key, chainId), and decodes back', () => {
    const account = privateKeyToAccount(generatePrivateKey()).address
    const key = privateKeyToAccount(generatePrivateKey()).address
    const pci = Contract.encodePci({ account, key, chainId: 31337 })
    expect(pci).toHaveLength(2 + 192)
    expect(pci.endsWith((31337).toString(16).padStart(64, '0'))).toBe(true)
    expect(Contract.decodePci(pci)).toEqual({
      account: account.toLowerCase(),
      key: key.toLowerCase(),
      chainId: 31337,
    })
  })

  it('refuses what is not one: wrong length, dirty address words, chain 0', () => {
    const pci = Contract.encodePci({ account: `0x${'1'.repeat(40)}`, key: `0x${'2'.repeat(40)}`, chainId: 1 })
    expect(Contract.decodePci(pci.slice(0, -2))).toBeUndefined()
    expect(Contract.decodePci(`0x1${pci.slice(3)}`)).toBeUndefined()
    expect(Contract.decodePci(`${pci.slice(0, -1)}0`)).toBeUndefined()
  })
})

describe.each(databases())('smart sessions on $engine', ({ open }) => {
  let db: Database.Database
  let api: Service.App
  const { json } = calls(() => api)
  const post = (path: string, body: unknown): Promise<Answer> =>
    json(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const list = async (account: Address, query = `chainId=${A}`) =>
    json(`/v1/sessions/${account}?projectId=demo&${query}`)
  /** The status the API lists the account's session of `key` with. */
  const statusOf = async (account: Address, key: Address) =>
    ((await list(account)).body as Required<Contract.AccountSessionsAnswer>).smartSessions.find(
      (session) => session.key.toLowerCase() === key.toLowerCase(),
    )?.status

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', [shop])
    api = Service.create({ db, config }).api
  })
  afterAll(() => db?.close())

  it('lists a session read from the chain: target, function, limit, gas allowance, expiry, the token it spends', async () => {
    const owner = await account7702()
    const key = privateKeyToAccount(generatePrivateKey()).address
    const { validUntil, pci } = await grant(owner, key)
    const answer = await list(owner.address)
    expect(answer.status).toBe(200)
    const body = answer.body as Contract.AccountSessionsAnswer
    expect(body.pci).toEqual([pci])
    expect(body.sessions).toEqual([])
    expect(body.smartSessions).toEqual([
      {
        pci,
        chainId: A,
        account: owner.address,
        key,
        target: testTokenAddress,
        selector: transfer,
        limit: parseEther('10').toString(),
        spent: '0',
        gasAllowance: parseEther('0.01').toString(),
        gasSpent: '0',
        validUntil,
        status: 'active',
        token: { symbol: 'ALT', decimals: 18 },
      },
    ])
    // The same by CAIP-10, and by a decimal chain id.
    expect((await list(`${A}:${owner.address}` as Address, '')).body).toEqual(body)
  })

  it('shows a session revoked on chain, and one past its expiry, as such', async () => {
    const owner = await account7702()
    const [revoked, expiring] = [generatePrivateKey(), generatePrivateKey()].map(
      (secret) => privateKeyToAccount(secret).address,
    ) as [Address, Address]
    await grant(owner, revoked)
    await send(
      owner,
      encodeFunctionData({ abi: sessionKeysAbi, functionName: 'revokeSession', args: [revoked] }),
    )
    await grant(owner, expiring, { validFor: 5 })
    await testClient().increaseTime({ seconds: 10 })
    await testClient().mine({ blocks: 1 })
    const body = (await list(owner.address)).body as Required<Contract.AccountSessionsAnswer>
    expect(body.pci).toEqual([])
    const status = Object.fromEntries(body.smartSessions.map((session) => [session.key, session.status]))
    expect(status).toEqual({ [revoked]: 'revoked', [expiring]: 'expired' })
  })

  it('records the account’s revocation, but lists the session as the chain has it: live until revoked there', async () => {
    const owner = await account7702()
    const key = privateKeyToAccount(generatePrivateKey()).address
    const { pci } = await grant(owner, key)
    const signature = await owner.signMessage({ message: Siwx.revokeMessage(pci) })
    const path = `/v1/sessions/${owner.address}/revoke?projectId=demo`
    expect(await post(path, { pci, signature })).toEqual({ status: 200, body: { success: true } })
    // Revoked at the API only: its key still signs on chain, so the list says so (and the modal offers Revoke).
    let body = (await list(owner.address)).body as Required<Contract.AccountSessionsAnswer>
    expect(body.pci).toEqual([pci])
    expect(body.smartSessions[0]).toMatchObject({ status: 'active', revokedAt: expect.any(Number) })
    // Again is fine: nothing changes.
    expect((await post(path, { pci, signature })).status).toBe(200)
    await send(owner, encodeFunctionData({ abi: sessionKeysAbi, functionName: 'revokeSession', args: [key] }))
    body = (await list(owner.address)).body as Required<Contract.AccountSessionsAnswer>
    expect(body.pci).toEqual([])
    expect(body.smartSessions[0]?.status).toBe('revoked')
  })

  it('refuses a revocation the session key signed itself: a key cannot hide its own session', async () => {
    const owner = await account7702()
    const key = privateKeyToAccount(generatePrivateKey())
    const { pci } = await grant(owner, key.address)
    const signature = await key.signMessage({ message: Siwx.revokeMessage(pci) })
    const answer = await post(`/v1/sessions/${owner.address}/revoke?projectId=demo`, { pci, signature })
    expect(answer).toEqual({ status: 401, body: { message: texts.signedByKey } })
    expect(await statusOf(owner.address, key.address)).toBe('active')
    expect(((await list(owner.address)).body as Contract.AccountSessionsAnswer).pci).toEqual([pci])
  })

  it('refuses a revoke signed by anyone else (401), of an unknown session (404), of another account (400)', async () => {
    const owner = await account7702()
    const key = privateKeyToAccount(generatePrivateKey()).address
    const { pci } = await grant(owner, key)
    const path = `/v1/sessions/${owner.address}/revoke?projectId=demo`
    const stranger = privateKeyToAccount(generatePrivateKey())
    expect(
      await post(path, {
        pci,
        signature: await stranger.signMessage({ message: Siwx.revokeMessage(pci) }),
      }),
    ).toEqual({ status: 401, body: { message: texts.invalidSignature } })
    // A signature of another message (the granted one) is not a revoke.
    expect(
      (
        await post(path, {
          pci,
          signature: await owner.signMessage({ message: Contract.grantedMessage(pci, shop) }),
        })
      ).status,
    ).toBe(401)
    const unknown = Contract.encodePci({ account: owner.address, key: stranger.address, chainId: 31337 })
    expect(
      await post(path, {
        pci: unknown,
        signature: await owner.signMessage({ message: Siwx.revokeMessage(unknown) }),
      }),
    ).toEqual({ status: 404, body: { message: texts.notFound } })
    const elsewhere = Contract.encodePci({ account: stranger.address, key, chainId: 31337 })
    expect(await post(path, { pci: elsewhere, signature: '0x00' })).toEqual({
      status: 400,
      body: { message: texts.wrongAccount },
    })
    // Not a smart session's pci: sign-in's to refuse.
    expect((await post(path, { pci: '0x1234', signature: '0x00' })).status).toBe(400)
    expect(await statusOf(owner.address, key)).toBe('active')
  })

  it('records the page a session was granted to, signed by the account', async () => {
    const owner = await account7702()
    const sessionKey = privateKeyToAccount(generatePrivateKey())
    const key = sessionKey.address
    const { pci } = await grant(owner, key)
    const path = `/v1/sessions/${owner.address}/granted?projectId=demo`
    // The key cannot name the page it was granted to.
    expect(
      await post(path, {
        pci,
        origin: shop,
        signature: await sessionKey.signMessage({ message: Contract.grantedMessage(pci, shop) }),
      }),
    ).toEqual({ status: 401, body: { message: texts.signedByKey } })
    const stranger = privateKeyToAccount(generatePrivateKey())
    expect(
      (
        await post(path, {
          pci,
          origin: shop,
          signature: await stranger.signMessage({ message: Contract.grantedMessage(pci, shop) }),
        })
      ).status,
    ).toBe(401)
    expect(
      await post(path, { pci, origin: `${shop}/path`, signature: await owner.signMessage({ message: 'x' }) }),
    ).toEqual({ status: 400, body: { message: texts.invalidOrigin } })
    const signature = await owner.signMessage({ message: Contract.grantedMessage(pci, shop) })
    expect(await post(path, { pci, origin: shop, signature })).toEqual({
      status: 200,
      body: { success: true },
    })
    const body = (await list(owner.address)).body as Required<Contract.AccountSessionsAnswer>
    expect(body.smartSessions[0]).toMatchObject({ pci, origin: shop, status: 'active' })
  })

  it('follows a 4337 account: the key spends through its own operations, the owner (never the key) records a revocation by ERC-1271', async () => {
    const client = publicClient()
    const owner = privateKeyToAccount(generatePrivateKey())
    const key = privateKeyToAccount(generatePrivateKey())
    const relayer = privateKeyToAccount(generatePrivateKey())
    await testClient().setBalance({ address: relayer.address, value: parseEther('10') })
    const sender = createWalletClient({
      account: relayer,
      chain: chain(),
      transport: http(devnet.chains[0].rpcUrl),
    })
    const entryPoint = { address: accountAbstraction.entryPoint08, version: '0.8' } as const
    const account = await toSimpleSmartAccount({
      client,
      owner,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint,
    })
    // The key drives the same account as README says a dApp does: permissionless with the key as owner.
    const asKey = await toSimpleSmartAccount({
      client,
      owner: key,
      address: account.address,
      factoryAddress: accountAbstraction.accountFactory,
      entryPoint,
    })
    const run = async (on: typeof account, calls: HandleOps.Call[]) => {
      const operation = await HandleOps.sponsor(client, await HandleOps.draft(client, on, calls))
      const receipt = await HandleOps.submit(sender, [
        { ...operation, signature: await on.signUserOperation(operation) },
      ])
      expect(receipt.status).toBe('success')
    }
    const funder = createWalletClient({
      account: privateKeyToAccount(Accounts.all()[0]?.privateKey ?? '0x'),
      chain: chain(),
      transport: http(devnet.chains[0].rpcUrl),
    })
    await client.waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: testTokenAddress,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [account.address, parseEther('100')],
      }),
    })
    const validUntil = Number((await client.getBlock()).timestamp) + 3600
    await run(account, [
      {
        to: account.address,
        data: encodeFunctionData({
          abi: sessionKeysAbi,
          functionName: 'grantSession',
          args: [key.address, testTokenAddress, transfer, parseEther('10'), validUntil, 0n],
        }),
      },
    ])
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    await run(asKey, [
      {
        to: testTokenAddress,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [recipient, parseEther('6')],
        }),
      },
    ])
    const pci = Contract.encodePci({ account: account.address, key: key.address, chainId: 31337 })
    const body = (await list(account.address)).body as Required<Contract.AccountSessionsAnswer>
    expect(body.smartSessions).toMatchObject([{ pci, spent: parseEther('6').toString(), status: 'active' }])
    const path = `/v1/sessions/${account.address}/revoke?projectId=demo`
    // The key's own signature is not the account's, though the key may sign its operations.
    const byKey = await key.signMessage({ message: Siwx.revokeMessage(pci) })
    expect(await post(path, { pci, signature: byKey })).toEqual({
      status: 401,
      body: { message: texts.signedByKey },
    })
    expect(await statusOf(account.address, key.address)).toBe('active')
    // The owner's EIP-191 signature is the account's by ERC-1271 (deployed now), as the embedded wallet signs.
    const signature = await owner.signMessage({ message: Siwx.revokeMessage(pci) })
    expect(await post(path, { pci, signature })).toEqual({ status: 200, body: { success: true } })
    // Recorded; the chain has the last word, and its key still signs.
    expect(await statusOf(account.address, key.address)).toBe('active')
  })

  it('leaves to sign-in what is not an EVM account on a chain it has; 502 when the chain is down', async () => {
    const someone = privateKeyToAccount(generatePrivateKey()).address
    // Sign-in's refusals and answers, unchanged.
    expect((await json(`/v1/sessions/0x1234?projectId=demo&chainId=${A}`)).body.pci).toBeUndefined()
    expect((await json(`/v1/sessions/${someone}?projectId=demo`)).status).toBe(400)
    expect((await json(`/v1/sessions/${someone}?projectId=demo&chainId=eip155:5`)).body).toEqual({
      sessions: [],
    })
    expect((await json(`/v1/sessions/${someone}?projectId=nobody&chainId=${A}`)).status).toBe(403)
    expect(await json(`/v1/sessions/${someone}?projectId=demo&chainId=eip155:999`)).toEqual({
      status: 502,
      body: { message: 'The RPC of eip155:999 is unavailable' },
    })
    // An account that never granted anything: sign-in's answer as it is.
    expect((await list(someone)).body).toEqual({ sessions: [] })
  })
})
