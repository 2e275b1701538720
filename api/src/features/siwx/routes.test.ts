import { Siwx as Message } from '@airlock/bridge-protocol'
import * as Schema from '@airlock/bridge-protocol/Schema'
import * as S from '@airlock/bridge-protocol/Shape'
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base58, base64 } from '@scure/base'
import { address as bitcoinAddress } from 'bitcoinjs-lib'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  publicActions,
  serializeErc6492Signature,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Accounts, accountAbstraction, Devnet } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { messages as apiMessages } from '../../http/errors.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { databases } from '../../internal/testing.ts'
import {
  testSignerAbi,
  testSignerBytecode,
  testSignerFactoryAbi,
  testSignerFactoryBytecode,
} from '../../internal/testSigner.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import * as Siwx from './index.ts'
import { messages } from './messages.ts'

// Ports of their own, so the suite runs beside `npm start`, the devnet's tests and the other route tests.
let devnet: Devnet.Instance
let deadRpc: string
/** An ERC-1271 account owned by `owner`, deployed; and the factory that deploys more with CREATE2. */
let deployedSigner: Address
let factory: Address
const owner = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  devnet = await Devnet.start({ ports: [18845, 18846] })
  deadRpc = `http://127.0.0.1:${await closedPort()}`
  const deployer = Accounts.all()[5]
  if (!deployer) throw new Error('no devnet account 5')
  const client = createWalletClient({
    account: privateKeyToAccount(deployer.privateKey),
    chain: devnet.chains[0].chain,
    transport: http(devnet.chains[0].rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions)
  const deploy = async (hash: Hex) => {
    const { contractAddress } = await client.waitForTransactionReceipt({ hash })
    if (!contractAddress) throw new Error('no contract deployed')
    // The receipt spells it in lower case; a sign-in message takes the EIP-55 spelling only.
    return getAddress(contractAddress)
  }
  deployedSigner = await deploy(
    await client.deployContract({ abi: testSignerAbi, bytecode: testSignerBytecode, args: [owner.address] }),
  )
  factory = await deploy(
    await client.deployContract({ abi: testSignerFactoryAbi, bytecode: testSignerFactoryBytecode }),
  )
})
afterAll(() => devnet?.stop())

const shop = 'http://localhost:5173'
const solanaDevnet = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const regtest = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'

function configOf(): Config.Config {
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  return {
    apiUrl: 'http://127.0.0.1:8787',
    modalOrigin: 'http://127.0.0.1:5174',
    chains: [
      {
        id: devnet.chains[0].caipNetworkId,
        name: 'A',
        rpcUrl: devnet.chains[0].rpcUrl,
        nativeCurrency: ether,
      },
      { id: 'eip155:999', name: 'Dead', rpcUrl: deadRpc, nativeCurrency: ether },
    ],
  }
}

/** A wallet of one namespace: its CAIP-10 account and a signer whose output is the text the API takes. */
type Wallet = { chainId: Message.Message['chainId']; address: string; sign(text: string): Promise<string> }

function evmWallet(chainId: Message.Message['chainId'] = 'eip155:31337'): Wallet {
  const account = privateKeyToAccount(generatePrivateKey())
  return { chainId, address: account.address, sign: (message) => account.signMessage({ message }) }
}

function solanaWallet(): Wallet {
  const seed = ed25519.utils.randomPrivateKey()
  return {
    chainId: solanaDevnet,
    address: base58.encode(ed25519.getPublicKey(seed)),
    sign: async (message) => base58.encode(ed25519.sign(utf8ToBytes(message), seed)),
  }
}

/** Signs as the e2e Bitcoin wallet does (e2e/wallets/keys.ts): BIP-137 with a P2WPKH key, base64 as usual. */
function bitcoinWallet(): Wallet {
  const key = secp256k1.utils.randomPrivateKey()
  const keyHash = ripemd160(sha256(secp256k1.getPublicKey(key, true)))
  const magic = utf8ToBytes('\x18Bitcoin Signed Message:\n')
  return {
    chainId: regtest,
    address: bitcoinAddress.toBech32(keyHash, 0, 'bcrt'),
    sign: async (message) => {
      const bytes = utf8ToBytes(message)
      // Bitcoin's CompactSize length; sign-in messages stay below 64 KiB.
      const length =
        bytes.length < 0xfd
          ? Uint8Array.of(bytes.length)
          : Uint8Array.of(0xfd, bytes.length, bytes.length >> 8)
      const hash = sha256(sha256(concatBytes(magic, length, bytes)))
      const signature = secp256k1.sign(hash, key, { lowS: true })
      return base64.encode(concatBytes(Uint8Array.of(39 + signature.recovery), signature.toCompactRawBytes()))
    },
  }
}

describe.each(databases())('sign-in routes on $engine', ({ open }) => {
  let db: Database
  let api: Service.App
  let time = Date.UTC(2026, 10, 22)

  beforeAll(async () => {
    db = await open()
    await Projects.add(db, 'demo', ['http://localhost:*', 'https://shop.example'])
    await Projects.add(db, 'other', ['https://other.example'])
    api = Service.create({ db, config: configOf(), now: () => time }).api
  })
  afterAll(() => db?.close())

  type Answer = { status: number; body: Record<string, unknown> & { message?: string } }
  const call = async (path: string, body?: unknown, projectId = 'demo'): Promise<Answer> => {
    const join = path.includes('?') ? '&' : '?'
    const response = await api.request(`${path}${join}projectId=${projectId}&st=airlock&sv=0.1.0`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Answer['body'] }
  }
  const nonce = async (projectId = 'demo') => {
    const { status, body } = await call('/v1/siwx/nonce', {}, projectId)
    expect(status).toBe(200)
    return body.nonce as string
  }
  const messageFor = async (wallet: Wallet, fields: Partial<Message.Message> = {}): Promise<string> =>
    Message.format({
      domain: 'localhost:5173',
      accountAddress: wallet.address,
      chainId: wallet.chainId,
      uri: `${shop}/checkout`,
      version: '1',
      nonce: fields.nonce ?? (await nonce()),
      issuedAt: new Date(time).toISOString(),
      statement: 'Sign in to the shop',
      ...fields,
    })
  const signIn = async (wallet: Wallet, fields: Partial<Message.Message> = {}, projectId = 'demo') => {
    const message = await messageFor(wallet, fields)
    return call('/v1/sessions', { message, signature: await wallet.sign(message) }, projectId)
  }
  const sessionsOf = async (wallet: Wallet) =>
    (await call(`/v1/sessions/${wallet.chainId}:${wallet.address}`)).body.sessions as { id: string }[]
  /** What the listing and the verify route show of a sign-in's answer: no message, signature or token. */
  const publicPart = ({ id, address, chainId, issuedAt, expiresAt }: Answer['body']) => ({
    id,
    address,
    chainId,
    issuedAt,
    expiresAt,
  })
  const verify = (token: unknown, projectId = 'demo') => call('/v1/sessions/verify', { token }, projectId)
  const days = (count: number) => count * 86_400_000

  describe('POST /v1/siwx/nonce', () => {
    it('issues a fresh nonce good for 5 minutes', async () => {
      const first = await call('/v1/siwx/nonce', {})
      expect(first.status).toBe(200)
      expect(first.body.nonce).toMatch(/^[A-Za-z0-9]{24}$/)
      expect(first.body.expiresAt).toBe(new Date(time + 300_000).toISOString())
      expect((await call('/v1/siwx/nonce', {})).body.nonce).not.toBe(first.body.nonce)
      // No body is needed.
      const bare = await api.request('/v1/siwx/nonce?projectId=demo', { method: 'POST' })
      expect(bare.status).toBe(200)
    })
  })

  describe('POST /v1/sessions', () => {
    it.each([
      ['an EVM account', () => evmWallet()],
      ['a Solana account', () => solanaWallet()],
      ['a Bitcoin account (BIP-137, P2WPKH on regtest)', () => bitcoinWallet()],
    ])('signs in %s, answers its token once, and lists the session', async (_, make) => {
      const wallet = make()
      const expirationTime = new Date(time + 86_400_000).toISOString()
      const message = await messageFor(wallet, { expirationTime })
      const signature = await wallet.sign(message)
      const { status, body } = await call('/v1/sessions', { message, signature })
      expect(status).toBe(201)
      const address = Siwx.normalizeAccount(`${wallet.chainId}:${wallet.address}`)
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        address,
        chainId: wallet.chainId,
        message,
        signature,
        issuedAt: new Date(time).toISOString(),
        expiresAt: expirationTime,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      })
      const listed = publicPart(body)
      expect((await call(`/v1/sessions/${address}`)).body).toEqual({ sessions: [listed] })
      expect(await sessionsOf(wallet)).toEqual([listed])
      // URL-encoded, or a bare address with the chain in the query.
      expect((await call(`/v1/sessions/${encodeURIComponent(address)}`)).body.sessions).toEqual([listed])
      expect(
        (await call(`/v1/sessions/${wallet.address}?chainId=${encodeURIComponent(wallet.chainId)}`)).body
          .sessions,
      ).toEqual([listed])
      expect(await verify(body.token)).toEqual({ status: 200, body: listed })
      // Another project sees nothing of it.
      expect((await call(`/v1/sessions/${address}`, undefined, 'other')).body.sessions).toEqual([])
      expect(await verify(body.token, 'other')).toEqual({
        status: 401,
        body: { message: messages.invalidSession },
      })
    })

    it('caps a session at 30 days when the message has no expiration time, or a later one', async () => {
      const wallet = evmWallet()
      const cap = new Date(time + days(30)).toISOString()
      const endless = await signIn(wallet)
      expect(endless.status).toBe(201)
      expect(endless.body.expiresAt).toBe(cap)
      const distant = await signIn(wallet, { expirationTime: new Date(time + days(365)).toISOString() })
      expect(distant.status).toBe(201)
      expect(distant.body.expiresAt).toBe(cap)
      // Sooner than the cap: the message's own time.
      const sooner = new Date(time + days(30) - 1000).toISOString()
      expect((await signIn(wallet, { expirationTime: sooner })).body.expiresAt).toBe(sooner)
      expect((await sessionsOf(wallet)).map((session) => publicPart(session).expiresAt).sort()).toEqual([
        sooner,
        cap,
        cap,
      ])
      expect((await verify(endless.body.token)).body).toEqual(publicPart(endless.body))
    })

    it('keeps nothing but the message and signature of a body: a CACAO is dropped', async () => {
      const wallet = evmWallet()
      const message = await messageFor(wallet)
      const cacao = { h: { t: 'caip122' }, p: { domain: 'localhost:5173' }, s: { t: 'eip191', s: '0x00' } }
      const { status, body } = await call('/v1/sessions', {
        message,
        signature: await wallet.sign(message),
        cacao,
      })
      expect(status).toBe(201)
      expect(Object.keys(body).sort()).toEqual(
        ['address', 'chainId', 'expiresAt', 'id', 'issuedAt', 'message', 'signature', 'token'].sort(),
      )
    })

    it('signs in a deployed ERC-1271 smart account', async () => {
      const wallet: Wallet = {
        chainId: 'eip155:31337',
        address: deployedSigner,
        sign: (message) => owner.signMessage({ message }),
      }
      expect((await signIn(wallet)).status).toBe(201)
      const stranger = privateKeyToAccount(generatePrivateKey())
      expect(
        (await signIn({ ...wallet, sign: (message) => stranger.signMessage({ message }) })).body,
      ).toEqual({
        message: messages.invalidSignature,
      })
    })

    it('signs in an ERC-6492 account that is not deployed yet', async () => {
      const salt = `0x${'42'.repeat(32)}` as const
      const address = getContractAddress({
        from: factory,
        opcode: 'CREATE2',
        salt,
        bytecode: `${testSignerBytecode}${encodeAbiParameters([{ type: 'address' }], [owner.address]).slice(2)}`,
      })
      const data = encodeFunctionData({
        abi: testSignerFactoryAbi,
        functionName: 'deploy',
        args: [owner.address, salt],
      })
      const wallet: Wallet = {
        chainId: 'eip155:31337',
        address,
        sign: async (message) =>
          serializeErc6492Signature({
            address: factory,
            data,
            signature: await owner.signMessage({ message }),
          }),
      }
      expect((await signIn(wallet)).status).toBe(201)
      expect(await sessionsOf(wallet)).toHaveLength(1)
    })

    it('signs in an AirlockAccount, undeployed (ERC-6492) and then deployed (ERC-1271), and not by a stranger’s key', async () => {
      const chain = devnet.chains[0]
      const client = createPublicClient({ chain: chain.chain, transport: http(chain.rpcUrl) })
      const accountOwner = privateKeyToAccount(generatePrivateKey())
      const account = await toSimpleSmartAccount({
        client,
        owner: accountOwner,
        factoryAddress: accountAbstraction.accountFactory,
        entryPoint: { address: accountAbstraction.entryPoint08, version: '0.8' },
      })
      const { factory: accountFactory, factoryData } = await account.getFactoryArgs()
      if (!accountFactory || !factoryData) throw new Error('no factory call')
      // As the modal's embedded wallet signs: the owner's EIP-191 signature, which the account checks by
      // ERC-1271, wrapped with its factory call (ERC-6492) while the account is not deployed.
      const signedBy = (signer: typeof accountOwner): Wallet => ({
        chainId: 'eip155:31337',
        address: account.address,
        sign: async (message) => {
          const signature = await signer.signMessage({ message })
          if (await client.getCode({ address: account.address })) return signature
          return serializeErc6492Signature({ address: accountFactory, data: factoryData, signature })
        },
      })
      const wallet = signedBy(accountOwner)
      const stranger = signedBy(privateKeyToAccount(generatePrivateKey()))
      expect(await client.getCode({ address: account.address })).toBeUndefined()
      expect(await wallet.sign('probe')).toMatch(/(6492){16}$/)
      expect((await signIn(wallet)).status).toBe(201)
      expect((await signIn(stranger)).body).toEqual({ message: messages.invalidSignature })

      const deployer = Accounts.all()[5]
      if (!deployer) throw new Error('no devnet account 5')
      const sender = createWalletClient({
        account: privateKeyToAccount(deployer.privateKey),
        chain: chain.chain,
        transport: http(chain.rpcUrl),
      })
      const hash = await sender.sendTransaction({ to: accountFactory, data: factoryData })
      await client.waitForTransactionReceipt({ hash })
      expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
      expect(await wallet.sign('probe')).toMatch(/^0x[0-9a-f]{130}$/)
      expect((await signIn(wallet)).status).toBe(201)
      expect(await sessionsOf(wallet)).toHaveLength(2)
      expect((await signIn(stranger)).body).toEqual({ message: messages.invalidSignature })
    })

    it('checks EOAs offline, and answers 502 when a contract account needs a dead RPC', async () => {
      expect((await signIn(evmWallet('eip155:999'))).status).toBe(201)
      const wallet: Wallet = { ...evmWallet('eip155:999'), address: deployedSigner }
      expect(await signIn(wallet)).toEqual({
        status: 502,
        body: { message: apiMessages.rpcUnavailable('eip155:999') },
      })
    })

    it('refuses a nonce twice, even after a failed attempt', async () => {
      const wallet = evmWallet()
      const message = await messageFor(wallet)
      const bad = await call('/v1/sessions', { message, signature: await evmWallet().sign(message) })
      expect(bad).toEqual({ status: 401, body: { message: messages.invalidSignature } })
      const retry = await call('/v1/sessions', { message, signature: await wallet.sign(message) })
      expect(retry).toEqual({ status: 409, body: { message: messages.usedNonce } })
      expect(await sessionsOf(wallet)).toEqual([])
    })

    it('refuses a message longer than a session may carry, before its nonce is spent', async () => {
      const wallet = evmWallet()
      const fresh = await nonce()
      const resources = Array.from(
        { length: 8 },
        (_, index) => `https://shop.example/${'r'.repeat(1000)}${index}`,
      )
      const long = await messageFor(wallet, { nonce: fresh, resources })
      expect(long.length).toBeGreaterThan(Schema.signedMessageMax)
      const refused = await call('/v1/sessions', { message: long, signature: await wallet.sign(long) })
      expect(refused.status).toBe(400)
      expect(await sessionsOf(wallet)).toEqual([])
      // The nonce is still good for a message a session can carry.
      expect((await signIn(wallet, { nonce: fresh })).status).toBe(201)
    })

    it("refuses nonces it never issued, another project's, and expired ones", async () => {
      const wallet = evmWallet()
      expect((await signIn(wallet, { nonce: 'madeUpNonce1234' })).body.message).toBe(messages.unknownNonce)
      expect((await signIn(wallet, { nonce: await nonce('other') })).body).toEqual({
        message: messages.unknownNonce,
      })
      const stale = await nonce()
      time += 300_000
      expect(await signIn(wallet, { nonce: stale, issuedAt: new Date(time).toISOString() })).toEqual({
        status: 409,
        body: { message: messages.expiredNonce },
      })
    })

    it('refuses expired and not-yet-valid messages, and ones issued too far ahead', async () => {
      const wallet = evmWallet()
      const at = (offset: number) => new Date(time + offset).toISOString()
      expect(await signIn(wallet, { expirationTime: at(0) })).toEqual({
        status: 400,
        body: { message: messages.expired },
      })
      expect(await signIn(wallet, { notBefore: at(1000) })).toEqual({
        status: 400,
        body: { message: messages.notYetValid },
      })
      expect(await signIn(wallet, { issuedAt: at(300_001) })).toEqual({
        status: 400,
        body: { message: messages.issuedInFuture },
      })
      // Within the allowed clock skew, and already valid.
      expect((await signIn(wallet, { issuedAt: at(300_000), notBefore: at(0) })).status).toBe(201)
    })

    it('refuses a message changed after it was signed', async () => {
      const wallet = evmWallet()
      const message = await messageFor(wallet)
      const signature = await wallet.sign(message)
      const tampered = message.replace('Sign in to the shop', 'Sign in to the shop and pay')
      expect(await call('/v1/sessions', { message: tampered, signature })).toEqual({
        status: 401,
        body: { message: messages.invalidSignature },
      })
      for (const make of [solanaWallet, bitcoinWallet]) {
        const other = make()
        const text = await messageFor(other)
        expect(
          (
            await call('/v1/sessions', {
              message: text.replace('shop', 'shops'),
              signature: await other.sign(text),
            })
          ).status,
        ).toBe(401)
      }
    })

    it("refuses 403 'Invalid App Configuration' for pages the project does not allow", async () => {
      const forbidden = { status: 403, body: { message: apiMessages.invalidAppConfiguration } }
      const wallet = evmWallet()
      expect(await signIn(wallet, { uri: 'https://evil.example/login', domain: 'evil.example' })).toEqual(
        forbidden,
      )
      // The domain must be the URI's host, and a scheme the URI's.
      expect(await signIn(wallet, { domain: 'shop.example' })).toEqual(forbidden)
      expect(await signIn(wallet, { domain: 'localhost:5174' })).toEqual(forbidden)
      expect(await signIn(wallet, { scheme: 'https' })).toEqual(forbidden)
      // An authority with userinfo is a domain EIP-4361 allows, but no origin.
      expect(await signIn(wallet, { domain: 'alice@localhost:5173' })).toEqual(forbidden)
      expect(await signIn(wallet, { uri: 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66' })).toEqual(
        forbidden,
      )
      // Another project's page.
      expect(await signIn(wallet, { uri: 'https://other.example/', domain: 'other.example' })).toEqual(
        forbidden,
      )
      expect(
        (await signIn(wallet, { uri: 'https://shop.example/login', domain: 'shop.example', scheme: 'https' }))
          .status,
      ).toBe(201)
    })

    it('refuses unknown projects on every route', async () => {
      const wallet = evmWallet()
      const unknown = { status: 403, body: { message: apiMessages.projectNotConfigured } }
      expect(await call('/v1/siwx/nonce', {}, 'nope')).toEqual(unknown)
      expect(await signIn(wallet, {}, 'nope')).toEqual(unknown)
      expect(await call(`/v1/sessions/${wallet.chainId}:${wallet.address}`, undefined, 'nope')).toEqual(
        unknown,
      )
      expect(
        await call(
          `/v1/sessions/${wallet.chainId}:${wallet.address}/revoke`,
          { pci: crypto.randomUUID(), signature: '0x00' },
          'nope',
        ),
      ).toEqual(unknown)
      expect(await verify('x'.repeat(43), 'nope')).toEqual(unknown)
      const missing = await api.request('/v1/siwx/nonce', { method: 'POST' })
      expect(missing.status).toBe(400)
    })

    it('refuses malformed input with 400', async () => {
      const wallet = evmWallet()
      const message = await messageFor(wallet)
      const signature = await wallet.sign(message)
      const cases: [unknown, string][] = [
        ['{not json', apiMessages.invalidJson],
        [{ signature }, 'message: expected'],
        [{ message }, 'signature: expected'],
        [
          { message: message.replace('Version: 1', 'Version: 2'), signature },
          'Invalid sign-in message, line 7',
        ],
        [{ message: `${message}\n`, signature }, 'Invalid sign-in message, line 11'],
      ]
      for (const [body, text] of cases) {
        const answer = await call('/v1/sessions', body)
        expect(answer.status, text).toBe(400)
        expect(answer.body.message).toContain(text)
      }
      expect((await signIn(evmWallet('eip155:1'))).body).toEqual({
        message: apiMessages.unsupportedChain('eip155:1'),
      })
      // The message's own grammar refuses an address not in its EIP-55 spelling, before the nonce is spent.
      const text = await messageFor(wallet)
      const swapped = wallet.address.replace(/[a-fA-F]/, (c) =>
        c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
      )
      for (const spelling of [wallet.address.toLowerCase(), swapped]) {
        const refused = await call('/v1/sessions', {
          message: text.replace(wallet.address, spelling),
          signature,
        })
        expect(refused.status).toBe(400)
        expect(refused.body.message).toMatch(
          /^Invalid sign-in message, line 2: the address must be EIP-55 checksummed/,
        )
      }
      expect((await call('/v1/sessions', { message: text, signature: await wallet.sign(text) })).status).toBe(
        201,
      )
      // A Bitcoin address of another network than the message's chain.
      const bitcoin = bitcoinWallet()
      const onMainnet = (await messageFor(bitcoin)).replace(
        `Chain ID: ${regtest.slice('bip122:'.length)}`,
        'Chain ID: 000000000019d6689c085ae165831e93',
      )
      const wrongNetwork = await call('/v1/sessions', {
        message: onMainnet,
        signature: await bitcoin.sign(onMainnet),
      })
      expect(wrongNetwork.status).toBe(400)
      expect(wrongNetwork.body.message).toContain(
        'line 2: the address must be a Bitcoin address of this chain',
      )
      const unknownNetwork = {
        ...bitcoinWallet(),
        chainId: 'bip122:00000000000000000000000000000000' as const,
      }
      expect((await signIn(unknownNetwork)).body).toEqual({
        message: apiMessages.unsupportedChain('bip122:00000000000000000000000000000000'),
      })
    })
  })

  describe('GET /v1/sessions/{address}', () => {
    it('shows no message, signature or token, which could pass for a login proof', async () => {
      const wallet = solanaWallet()
      const { body } = await signIn(wallet)
      const [listed] = await sessionsOf(wallet)
      expect(listed).toEqual(publicPart(body))
      const text = JSON.stringify(await sessionsOf(wallet))
      for (const secret of [body.message, body.signature, body.token] as string[])
        expect(text).not.toContain(secret)
    })

    it('lists nothing once a session expired', async () => {
      const wallet = evmWallet()
      expect((await signIn(wallet, { expirationTime: new Date(time + 60_000).toISOString() })).status).toBe(
        201,
      )
      expect(await sessionsOf(wallet)).toHaveLength(1)
      time += 60_000
      expect(await sessionsOf(wallet)).toEqual([])
    })

    it('lists the same sessions whatever the EVM address case', async () => {
      const wallet = evmWallet()
      expect((await signIn(wallet)).status).toBe(201)
      const lower = await call(`/v1/sessions/${wallet.chainId}:${wallet.address.toLowerCase()}`)
      expect(lower.body.sessions).toEqual(await sessionsOf(wallet))
      expect(lower.body.sessions).toHaveLength(1)
    })

    it('refuses addresses that are not CAIP-10 and chains that disagree', async () => {
      const wallet = evmWallet()
      expect(await call(`/v1/sessions/${wallet.address}`)).toEqual({
        status: 400,
        body: { message: 'Invalid CAIP-10 address' },
      })
      expect(await call(`/v1/sessions/eip155:31337:${wallet.address}?chainId=eip155:1`)).toEqual({
        status: 400,
        body: { message: messages.chainMismatch },
      })
      expect((await call(`/v1/sessions/${wallet.address}?chainId=eip155`)).body).toEqual({
        message: 'Invalid CAIP-2 network id',
      })
    })
  })

  describe('POST /v1/sessions/{address}/revoke', () => {
    const revoke = async (wallet: Wallet, pci: string, signer: Wallet = wallet) =>
      call(`/v1/sessions/${encodeURIComponent(`${wallet.chainId}:${wallet.address}`)}/revoke`, {
        pci,
        signature: await signer.sign(Message.revokeMessage(pci)),
      })

    it.each([
      ['an EVM account', () => evmWallet()],
      ['a Solana account', () => solanaWallet()],
      ['a Bitcoin account', () => bitcoinWallet()],
    ])('revokes a session of %s signed by it, which is then never listed', async (_, make) => {
      const wallet = make()
      const kept = await signIn(wallet)
      const { body } = await signIn(wallet)
      expect(await sessionsOf(wallet)).toHaveLength(2)
      expect(await revoke(wallet, body.id as string, make())).toEqual({
        status: 401,
        body: { message: messages.invalidSignature },
      })
      expect(await revoke(wallet, body.id as string)).toEqual({ status: 200, body: { success: true } })
      expect(await sessionsOf(wallet)).toEqual([publicPart(kept.body)])
      expect((await verify(body.token)).status).toBe(401)
      expect((await verify(kept.body.token)).status).toBe(200)
      // Revoking again changes nothing.
      expect(await revoke(wallet, body.id as string)).toEqual({ status: 200, body: { success: true } })
      expect(await sessionsOf(wallet)).toEqual([publicPart(kept.body)])
    })

    it('revokes a smart account session signed by its owner', async () => {
      const wallet: Wallet = {
        chainId: 'eip155:31337',
        address: deployedSigner,
        sign: (message) => owner.signMessage({ message }),
      }
      const { body } = await signIn(wallet)
      expect((await sessionsOf(wallet)).map((session) => session.id)).toContain(body.id)
      expect(await revoke(wallet, body.id as string)).toEqual({ status: 200, body: { success: true } })
      expect((await sessionsOf(wallet)).map((session) => session.id)).not.toContain(body.id)
    })

    it("answers 404 for unknown sessions and another account's", async () => {
      const wallet = evmWallet()
      const { body } = await signIn(wallet)
      const notFound = { status: 404, body: { message: messages.sessionNotFound } }
      expect(await revoke(wallet, crypto.randomUUID())).toEqual(notFound)
      const stranger = evmWallet()
      expect(await revoke(stranger, body.id as string)).toEqual(notFound)
      expect(await sessionsOf(wallet)).toHaveLength(1)
      const malformed = await call(`/v1/sessions/${wallet.chainId}:${wallet.address}/revoke`, {
        pci: 'x',
        signature: '0x00',
      })
      expect(malformed).toEqual({ status: 400, body: { message: 'pci: expected a session id' } })
    })

    it('lets an operator revoke any session', async () => {
      const wallet = solanaWallet()
      const { body } = await signIn(wallet)
      expect(await Siwx.revoke(db, body.id as string, time)).toBe(true)
      expect(await sessionsOf(wallet)).toEqual([])
    })
  })

  describe('POST /v1/sessions/verify', () => {
    const invalid = { status: 401, body: { message: messages.invalidSession } }

    it("answers the active session of a token, and 401 'Invalid session' once it is revoked", async () => {
      const wallet = evmWallet()
      const { body } = await signIn(wallet)
      expect(await verify(body.token)).toEqual({ status: 200, body: publicPart(body) })
      expect(await Siwx.revoke(db, body.id as string, time)).toBe(true)
      expect(await verify(body.token)).toEqual(invalid)
    })

    it("refuses an expired session, an unknown token, and the session's id or signature", async () => {
      const wallet = bitcoinWallet()
      const { body } = await signIn(wallet, { expirationTime: new Date(time + 60_000).toISOString() })
      const token = body.token as string
      const strangers = [
        'x'.repeat(43),
        `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
        body.id,
        body.signature,
      ]
      for (const stranger of strangers) expect(await verify(stranger), String(stranger)).toEqual(invalid)
      expect((await verify(token)).status).toBe(200)
      time += 60_000
      expect(await verify(token)).toEqual(invalid)
    })

    it('refuses a body without a token with 400', async () => {
      for (const body of [{}, { token: '' }, { token: 42 }, { token: 'x'.repeat(257) }]) {
        const answer = await call('/v1/sessions/verify', body)
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body.message).toContain('token: expected')
      }
      expect((await call('/v1/sessions/verify', '{not json')).body).toEqual({
        message: apiMessages.invalidJson,
      })
    })
  })

  describe('contract', () => {
    it('answers in the shapes of the contract the modal parses with', async () => {
      const issued = await call('/v1/siwx/nonce', {})
      expect(S.parse(Contract.nonceAnswer, issued.body)).toEqual({ ok: true, value: issued.body })
      const wallet = evmWallet()
      const { body } = await signIn(wallet)
      expect(S.parse(Contract.sessionAnswer, body)).toEqual({ ok: true, value: body })
      const listed = await call(`/v1/sessions/${wallet.chainId}:${wallet.address}`)
      expect(S.parse(Contract.sessionsAnswer, listed.body)).toMatchObject({ ok: true })
    })
  })
})
