import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import {
  type Address,
  ccipRequest,
  createPublicClient,
  createWalletClient,
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  namehash,
  type PublicClient,
  parseAbi,
  toCoinType,
  toHex,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { packetToBytes } from 'viem/ens'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Ens from '../../../../devnet/src/ens/Ens.ts'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Accounts, Devnet, ens } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type * as Database from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import { type Answer, calls, configOf, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import { testSignerAbi, testSignerBytecode } from '../../internal/testSigner.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import { gatewayTexts } from './Gateway.ts'
import { devnetConfig } from './testing.ts'

const texts = Contract.nameTexts
const A = 'eip155:31337'
const key = (index: number) => privateKeyToAccount(Accounts.all()[index]?.privateKey ?? '0x')
const [alice, newcomer, other, renamer] = [key(1), key(3), key(4), key(5)]

let devnet: Devnet.Instance
let server: ReturnType<typeof serve>
let apiUrl: string
let config: Config.Config
/** The app the HTTP server answers with: each database's suite puts its own in. */
let current: Service.App | undefined

beforeAll(async () => {
  // The API listens first, so the offchain resolver can be deployed with its gateway's URL; it answers with
  // whichever database's app the suite running now put in `current`.
  server = serve({
    fetch: (request) => current?.fetch(request) ?? new Response(null, { status: 503 }),
    port: 0,
  })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const ports = [await closedPort(), await closedPort()] as const
  devnet = await Devnet.start({ ports, ens: { gatewayUrl: `${apiUrl}${Contract.ensGatewayPath}` } })
  // The suffix's names resolve through this test's API, on loopback.
  config = devnetConfig(devnet, [apiUrl])
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await devnet?.stop()
})

/** A plain viem client of chain A, as any dApp has. */
const viem = (): PublicClient => createPublicClient({ chain: devnet.chains[0].chain, transport: http() })

/** A registration body, signed by `signer` for `address` (its own by default). */
async function registration(
  signer: PrivateKeyAccount,
  name: string,
  options: {
    address?: Address
    timestamp?: number
    coinType?: number
    attributes?: Record<string, string>
  } = {},
): Promise<Contract.RegisterNameBody> {
  const message = JSON.stringify({
    name,
    attributes: options.attributes ?? {},
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  })
  return {
    coin_type: options.coinType ?? Number(toCoinType(31337)),
    address: options.address ?? signer.address,
    message,
    signature: await signer.signMessage({ message }),
  }
}

describe.each(databases())('names on $engine', ({ open }) => {
  let db: Database.Database
  let api: Service.App
  const { json } = calls(() => api)
  const register = (body: Contract.RegisterNameBody): Promise<Answer> =>
    json('/v1/profile/account?projectId=demo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', [shop])
    api = Service.create({ db, config }).api
    current = api
  })
  afterAll(() => db?.close())

  it('lets a plain viem client resolve alice.eth, reverse-resolve her address and read her avatar', async () => {
    expect(await viem().getEnsAddress({ name: 'alice.eth' })).toBe(alice.address)
    expect(await viem().getEnsName({ address: alice.address })).toBe('alice.eth')
    expect(await viem().getEnsAvatar({ name: 'alice.eth' })).toBe(Ens.aliceAvatar)
  })

  it('registers newcomer.airlock.id, which viem resolves through CCIP-read against the running API', async () => {
    const avatar = 'https://example.com/newcomer.png'
    const answer = await register(
      await registration(newcomer, 'Newcomer.airlock.id', { attributes: { avatar } }),
    )
    expect(answer).toMatchObject({
      status: 201,
      body: {
        name: 'newcomer.airlock.id',
        addresses: { [String(toCoinType(31337))]: { address: newcomer.address } },
        attributes: { avatar },
      },
    })
    expect(await viem().getEnsAddress({ name: 'newcomer.airlock.id' })).toBe(newcomer.address)
    // viem answers a coin type's address as the resolver's bytes: in lower case.
    expect(await viem().getEnsAddress({ name: 'newcomer.airlock.id', coinType: toCoinType(31337) })).toBe(
      newcomer.address.toLowerCase(),
    )
    // Another chain's coin type has no address: the name was registered for chain 31337's.
    expect(await viem().getEnsAddress({ name: 'newcomer.airlock.id', coinType: toCoinType(10) })).toBeNull()
    expect(await viem().getEnsText({ name: 'newcomer.airlock.id', key: 'avatar' })).toBe(avatar)
    // Chain B's offchain resolver (at the same address) asks the same gateway.
    const chainB = createPublicClient({ chain: devnet.chains[1].chain, transport: http() })
    expect(await chainB.getEnsAddress({ name: 'newcomer.airlock.id' })).toBe(newcomer.address)
    expect(await viem().getEnsAddress({ name: 'nobody-here.airlock.id' })).toBeNull()
  })

  it('checks a project name set as a primary name on chain forward, through the gateway', async () => {
    const claim = async (account: PrivateKeyAccount) => {
      const wallet = createWalletClient({ account, chain: devnet.chains[0].chain, transport: http() })
      const hash = await wallet.writeContract({
        address: ens.reverseRegistrar,
        abi: Ens.reverseRegistrarAbi,
        functionName: 'setName',
        args: ['newcomer.airlock.id'],
      })
      expect((await viem().waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
    }
    await claim(newcomer)
    expect(await viem().getEnsName({ address: newcomer.address })).toBe('newcomer.airlock.id')
    // Another address claiming the name as its own: the name does not resolve back to it.
    await claim(other)
    expect(await viem().getEnsName({ address: other.address })).toBeNull()
    await expect(viem().getEnsName({ address: other.address, strict: true })).rejects.toThrow(
      /ReverseAddressMismatch/,
    )
  })

  it('builds the transaction that makes a name its holder’s primary one, and only for its holder', async () => {
    await register(await registration(renamer, 'primary-test.airlock.id'))
    const answer = await json(
      `/v1/profile/primary/primary-test.airlock.id?projectId=demo&address=${renamer.address}`,
    )
    expect(answer.status).toBe(200)
    const { tx, chainId } = answer.body as Contract.PrimaryNameAnswer
    expect(chainId).toBe(A)
    expect(tx.to.toLowerCase()).toBe(ens.reverseRegistrar.toLowerCase())
    const wallet = createWalletClient({ account: renamer, chain: devnet.chains[0].chain, transport: http() })
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex })
    expect((await viem().waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
    expect(await viem().getEnsName({ address: renamer.address })).toBe('primary-test.airlock.id')
    const refused = await json(
      `/v1/profile/primary/primary-test.airlock.id?projectId=demo&address=${other.address}`,
    )
    expect(refused).toEqual({ status: 400, body: { message: texts.notYours } })
    expect(
      (await json(`/v1/profile/primary/nobody-here.airlock.id?projectId=demo&address=${other.address}`))
        .status,
    ).toBe(404)
  })

  it('looks names up: the project’s from the database, .eth ones on chain', async () => {
    const lookup = (name: string) => json(`/v1/profile/account/${name}?projectId=demo&apiVersion=2`)
    expect(await lookup('newcomer.airlock.id')).toMatchObject({
      status: 200,
      body: { name: 'newcomer.airlock.id', registered: expect.any(Number) },
    })
    expect(await lookup('Alice.eth')).toEqual({
      status: 200,
      body: {
        name: 'alice.eth',
        addresses: { '60': { address: alice.address } },
        attributes: { avatar: Ens.aliceAvatar, description: 'Alice of the Airlock devnet' },
      },
    })
    expect(await lookup('nobody-here.airlock.id')).toEqual({ status: 404, body: { message: texts.notFound } })
    expect(await lookup('nobody.eth')).toEqual({ status: 404, body: { message: texts.notFound } })
    expect((await json('/v1/profile/account/alice.eth?projectId=unknown')).status).toBe(403)
  })

  it('lists an address’s names: its project name, then its ENS primary name', async () => {
    const reverse = (address: Address) =>
      json(`/v1/profile/reverse/${address}?projectId=demo&sender=${address}&apiVersion=2`)
    const own = await reverse(newcomer.address)
    expect(own.status).toBe(200)
    expect((own.body as unknown as Contract.ReverseAnswer).map((record) => record.name)).toEqual([
      'newcomer.airlock.id',
    ])
    const aliceNames = (await reverse(alice.address)).body as unknown as Contract.ReverseAnswer
    expect(aliceNames.map((record) => record.name)).toEqual(['alice.eth'])
    expect((await reverse(other.address)).body).toEqual([])
  })

  it('names registered addresses in /v1/identity, .eth ones by their reverse records', async () => {
    const identity = (address: Address) => json(`/v1/identity/${address}?projectId=demo`)
    expect((await identity(newcomer.address)).body).toEqual({
      name: 'newcomer.airlock.id',
      avatar: 'https://example.com/newcomer.png',
    })
    expect((await identity(alice.address)).body).toEqual({ name: 'alice.eth', avatar: Ens.aliceAvatar })
    expect((await identity(other.address)).body).toEqual({ name: null, avatar: null })
  })

  it('suggests free variants of a wanted name under the suffix', async () => {
    const suggest = (name: string, zone = 'airlock.id') =>
      json(`/v1/profile/suggestions/${name}?projectId=demo&zone=${zone}`)
    const { body } = await suggest('newcomer')
    expect(body).toEqual({
      suggestions: [
        { name: 'newcomer.airlock.id', registered: true },
        ...['newcomer1', 'newcomer2', 'newcomer3', 'thenewcomer', 'newcomerhq'].map((label) => ({
          name: `${label}.airlock.id`,
          registered: false,
        })),
      ],
    })
    expect((await suggest('Fresh-Name.airlock.id')).body.suggestions).toContainEqual({
      name: 'fresh-name.airlock.id',
      registered: false,
    })
    expect(await suggest('abc')).toEqual({ status: 400, body: { message: texts.tooShort } })
    expect(await suggest('newcomer', 'wcn.id')).toEqual({
      status: 400,
      body: { message: texts.unsupportedZone('wcn.id') },
    })
  })

  it.each([
    ['too short', 'abc.airlock.id', texts.tooShort],
    ['illegal characters', 'new_comer.airlock.id', texts.illegal],
    ['a space', 'new comer.airlock.id', texts.illegal],
    ['an emoji', '🚀🚀🚀🚀.airlock.id', texts.illegal],
    ['confusable (Cyrillic that reads as "apple")', 'аррӏе.airlock.id', texts.confusable],
    ['mixed scripts', 'pаypal.airlock.id', texts.confusable],
    ['another suffix', 'newcomer.eth', texts.wrongSuffix('airlock.id')],
    ['a name under a name', 'a.bcde.airlock.id', texts.illegal],
  ])('refuses a name that is %s', async (_, name, message) => {
    expect(await register(await registration(other, name))).toEqual({ status: 400, body: { message } })
  })

  it('refuses another address’s signature', async () => {
    const body = await registration(other, 'impostor.airlock.id', { address: newcomer.address })
    expect(await register(body)).toEqual({ status: 401, body: { message: texts.invalidSignature } })
  })

  it('refuses a timestamp more than 10 minutes from now, either way', async () => {
    const now = Math.floor(Date.now() / 1000)
    for (const timestamp of [now - 11 * 60, now + 11 * 60])
      expect(await register(await registration(other, 'latecomer.airlock.id', { timestamp }))).toEqual({
        status: 400,
        body: { message: texts.staleMessage },
      })
  })

  it('refuses a registration sent twice, and a name another address holds', async () => {
    const body = await registration(other, 'twice.airlock.id')
    expect((await register(body)).status).toBe(201)
    expect(await register(body)).toEqual({ status: 409, body: { message: texts.replayed } })
    expect(await register(await registration(renamer, 'newcomer.airlock.id'))).toEqual({
      status: 409,
      body: { message: texts.taken },
    })
  })

  it('gives a name wanted by two addresses at once to one of them', async () => {
    const answers = await Promise.all([
      register(await registration(key(8), 'contested.airlock.id')),
      register(await registration(key(9), 'contested.airlock.id')),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
    expect(answers.find((answer) => answer.status === 409)?.body).toEqual({ message: texts.taken })
  })

  it.each([
    ['a chain id of 2^31 or more', 0x8000_0000 + 2 ** 31, texts.invalidChainId],
    ['a chain id that is no integer', 0x8000_0000 + 1.5, texts.invalidChainId],
    ['a coin type of another family (Bitcoin)', 0, texts.unsupportedChain],
  ])('refuses %s', async (_, coinType, message) => {
    expect(await register(await registration(other, 'chains.airlock.id', { coinType }))).toEqual({
      status: 400,
      body: { message },
    })
  })

  it('refuses a message that is not the JSON it should be, and bad attributes', async () => {
    const signed = async (message: string) => ({
      coin_type: 60,
      address: other.address,
      message,
      signature: await other.signMessage({ message }),
    })
    expect(await register(await signed('name=x'))).toEqual({
      status: 400,
      body: { message: texts.invalidMessage },
    })
    expect(await register(await signed(JSON.stringify({ name: 'nostamp.airlock.id' })))).toEqual({
      status: 400,
      body: { message: texts.invalidMessage },
    })
    const badKey = await registration(other, 'attrs.airlock.id', { attributes: { 'a b': 'x' } })
    expect(await register(badKey)).toEqual({ status: 400, body: { message: texts.invalidAttributes } })
  })

  it('renames: a second name of the same address lets the first go; the same name again updates it', async () => {
    expect((await register(await registration(renamer, 'firstname.airlock.id'))).status).toBe(201)
    const renamed = await register(await registration(renamer, 'secondname.airlock.id', { coinType: 60 }))
    expect(renamed).toMatchObject({
      status: 201,
      body: { addresses: { '60': { address: renamer.address } } },
    })
    expect((await json('/v1/profile/account/firstname.airlock.id?projectId=demo')).status).toBe(404)
    const updated = await register(
      await registration(renamer, 'secondname.airlock.id', {
        coinType: 60,
        attributes: { description: 'me' },
      }),
    )
    expect(updated).toMatchObject({ status: 201, body: { attributes: { description: 'me' } } })
    expect(await viem().getEnsText({ name: 'secondname.airlock.id', key: 'description' })).toBe('me')
    // The first name is free for anyone now.
    expect((await register(await registration(other, 'firstname.airlock.id'))).status).toBe(201)
  })

  it('registers a smart account (ERC-1271) by its owner’s signature, checked on chain', async () => {
    const owner = key(6)
    const deployer = createWalletClient({ account: key(7), chain: devnet.chains[0].chain, transport: http() })
    const hash = await deployer.deployContract({
      abi: testSignerAbi,
      bytecode: testSignerBytecode,
      args: [owner.address],
    })
    const receipt = await viem().waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (!receipt.contractAddress) throw new Error('no TestSigner deployed')
    const contractAddress = getAddress(receipt.contractAddress)
    const body = await registration(owner, 'smartie.airlock.id', { address: contractAddress })
    expect(await register(body)).toMatchObject({ status: 201, body: { name: 'smartie.airlock.id' } })
    expect(await viem().getEnsAddress({ name: 'smartie.airlock.id' })).toBe(contractAddress)
  })

  it('signs gateway answers the resolver accepts, and the resolver rejects a tampered one', async () => {
    // A client whose gateway requests come back with another address in the signed result.
    const tampered = createPublicClient({
      chain: devnet.chains[0].chain,
      transport: http(),
      ccipRead: {
        async request(parameters) {
          const [result, expires, signature] = decodeAbiParameters(
            [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
            await ccipRequest(parameters),
          )
          const forged: Hex = encodeAbiParameters([{ type: 'address' }], [other.address])
          expect(result).not.toBe(forged)
          return encodeAbiParameters(
            [{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }],
            [forged, expires, signature],
          )
        },
      },
    })
    expect(await tampered.getEnsAddress({ name: 'newcomer.airlock.id' })).toBeNull()
    await expect(tampered.getEnsAddress({ name: 'newcomer.airlock.id', strict: true })).rejects.toThrow(
      /ResolverError/,
    )
  })

  it('refuses gateway requests that are not the resolver’s', async () => {
    const sender = ens.offchainResolver.toLowerCase()
    expect(await json(`/v1/ens/gateway/${sender}/0x12345678.json`)).toEqual({
      status: 400,
      body: { message: gatewayTexts.badRequest },
    })
    expect((await json('/v1/ens/gateway/not-an-address/0x12345678.json')).status).toBe(400)
    // A resolve(bytes,bytes) of newcomer.airlock.id asking contenthash(node), which the gateway does not answer.
    const contenthash = encodeFunctionData({
      abi: parseAbi(['function contenthash(bytes32) view returns (bytes)']),
      args: [namehash('newcomer.airlock.id')],
    })
    const request = encodeFunctionData({
      abi: parseAbi(['function resolve(bytes name, bytes data) view returns (bytes)']),
      args: [toHex(packetToBytes('newcomer.airlock.id')), contenthash],
    })
    const post = await json('/v1/ens/gateway', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender, data: request }),
    })
    expect(post).toEqual({ status: 400, body: { message: gatewayTexts.unsupported } })
  })
})

describe('names without the configuration’s names block', () => {
  it('answers 404 on every names route', async () => {
    const db = await memoryDatabase()
    try {
      await Projects.add(db, 'demo', [shop])
      const { json } = calls(() => Service.create({ db, config: configOf() }).api)
      expect((await json('/v1/profile/account/alice.eth?projectId=demo')).status).toBe(404)
      expect((await json(`/v1/ens/gateway/${ens.offchainResolver}/0x00.json`)).status).toBe(404)
    } finally {
      await db.close()
    }
  })
})
