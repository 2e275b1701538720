import { closedPort } from '@airlock/api/testing'
import type { Caip, Request } from '@airlock/bridge-protocol'
import { ed25519 } from '@noble/curves/ed25519'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  parseEther,
  parseGwei,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path: the devnet runs the modal's build, so a package dependency would be a cycle.
import * as Anvil from '../../../../devnet/src/Anvil.ts'
import * as Solana from '../../../../devnet/src/solana/Solana.ts'
import * as base58 from '../../shared/encoding/base58.ts'
import type { Network } from '../../shared/Network.ts'
import * as Message from '../../shared/solana/Message.ts'
import { simulate } from './internal/simulateEvm.ts'
import * as Requests from './Requests.ts'
import * as Rpc from './Rpc.ts'
import * as Secrets from './Secrets.ts'
import * as Embedded from './testing.ts'
import * as Vault from './Vault.ts'

const evm: Caip.ChainId = 'eip155:31337'
const sol = Solana.caipNetworkId as Caip.ChainId
const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
const noStorage = () => undefined

let anvil: Anvil.Instance
let solana: Solana.Instance
let stack: Embedded.Stack
let wallet: Vault.Wallet
/** The wallet's EVM address. */
let me: Address
/** The relay through the API: the chains the API was configured with, as the modal reaches them. */
let rpc: Rpc.Rpc
let chain: {
  test: ReturnType<typeof createTestClient>
  client: ReturnType<typeof createPublicClient>
}

beforeAll(async () => {
  ;[anvil, solana] = await Promise.all([
    closedPort().then((port) => Anvil.start({ port, chainId: 31337 })),
    Solana.start({ port: 0 }),
  ])
  stack = await Embedded.start({
    chains: [
      { id: evm, name: 'Anvil', rpcUrl: anvil.rpcUrl, nativeCurrency: ether },
      { id: sol, name: 'Solana', rpcUrl: solana.rpcUrl, nativeCurrency: { ...ether, decimals: 9 } },
    ],
  })
  const session = await stack.login('ada')
  const store = Secrets.create(() => 'https://shop.example', noStorage)
  wallet = await Vault.create({ account: stack.account, store }, session, {
    method: 'password',
    password: 'correct horse battery staple',
  })
  me = wallet.addresses.eip155 as Address
  rpc = Rpc.relay(stack.api.endpoint)
  chain = {
    test: createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }),
    client: createPublicClient({ transport: http(anvil.rpcUrl) }),
  }
})
afterAll(async () => {
  await stack?.stop()
  await Promise.all([anvil?.stop(), solana?.stop()])
})

const sign = (request: Request, chainId: Caip.ChainId = evm) => Requests.sign(wallet, request, chainId, rpc)
const eth = (method: string, params: unknown[]): Request => ({ namespace: 'eip155', method, params })
/** What a failed call was refused with: its JSON-RPC / EIP-1193 code. */
const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'resolved',
    (error: { code?: unknown }) => error.code,
  )
/** Addresses nobody has used: their balance is 0 until a test sends to them. */
let serial = 0xe0
const fresh = () => `0x${(++serial).toString(16).padStart(40, '0')}` as Address

describe('the relay', () => {
  it('answers what the node answers, and the node’s own error code and message', async () => {
    expect(await rpc(evm, 'eth_chainId', [])).toBe(toHex(31337))
    // anvil's own words for a malformed address, passed on as it said them.
    await expect(rpc(evm, 'eth_getBalance', ['not an address', 'latest'])).rejects.toMatchObject({
      code: -32602,
      message: 'invalid string length',
    })
    // The relay's own refusal of a method it does not relay, as JSON-RPC.
    await expect(rpc(evm, 'eth_sign', [me, '0x00'])).rejects.toMatchObject({
      code: -32601,
      message: 'The Airlock API does not relay eth_sign',
    })
  })
})

describe('the relay, when the API refuses', () => {
  const unrelayed = 'eip155:999'

  it('fails the call instead of answering nothing', async () => {
    await expect(rpc(unrelayed, 'eth_blockNumber', [])).rejects.toMatchObject({ code: -32603 })
  })

  it('fails a send, never answering a hash it does not have', async () => {
    const sent = sign(
      eth('eth_sendTransaction', [{ to: fresh(), gas: toHex(21_000), gasPrice: '0x1', nonce: '0x0' }]),
      unrelayed,
    )
    await expect(sent).rejects.toMatchObject({ code: -32603 })
  })
})

describe('EVM signatures', () => {
  it('signs personal_sign for the wallet’s address, in any case', async () => {
    const message = toHex('Sign in to the shop')
    for (const address of [me, me.toLowerCase()]) {
      const signature = (await sign(eth('personal_sign', [message, address]))) as Hex
      expect(await verifyMessage({ address: me, message: { raw: message }, signature })).toBe(true)
    }
  })

  it('refuses to sign for another address (4100) and malformed params (-32602)', async () => {
    const message = toHex('hello')
    expect(await codeOf(sign(eth('personal_sign', [message, fresh()])))).toBe(4100)
    expect(await codeOf(sign(eth('eth_signTypedData_v4', [fresh(), '{}'])))).toBe(4100)
    expect(await codeOf(sign(eth('eth_sendTransaction', [{ from: fresh(), to: fresh() }])))).toBe(4100)
    expect(await codeOf(sign(eth('personal_sign', [message])))).toBe(-32602)
    expect(await codeOf(sign(eth('personal_sign', [me, message])))).toBe(-32602)
    expect(await codeOf(sign(eth('eth_sign', [me, message])))).toBe(4200)
  })

  const mail = (chainId: unknown) => ({
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Mail: [
        { name: 'to', type: 'address' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    domain: { name: 'Shop', version: '1', chainId },
    message: { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', contents: 'hello' },
  })

  it('signs eth_signTypedData_v4 given as JSON text or as an object, its chainId in any notation', async () => {
    const { EIP712Domain: _, ...types } = mail(31337).types
    const expected = { ...mail(31337), types, address: me } as Omit<
      Parameters<typeof verifyTypedData>[0],
      'signature'
    >
    for (const param of [JSON.stringify(mail(31337)), mail(31337), mail('31337'), mail('0x7a69')]) {
      const signature = (await sign(eth('eth_signTypedData_v4', [me, param]))) as Hex
      expect(await verifyTypedData({ ...expected, signature })).toBe(true)
    }
  })

  it('refuses typed data whose domain names another chain, or that is not typed data', async () => {
    for (const chainId of [1, '1', '0x1'])
      expect(await codeOf(sign(eth('eth_signTypedData_v4', [me, JSON.stringify(mail(chainId))])))).toBe(
        -32602,
      )
    for (const param of ['not json', '{"types":{}}', 42])
      expect(await codeOf(sign(eth('eth_signTypedData_v4', [me, param])))).toBe(-32602)
  })

  it('refuses a domain chainId that is not a chain id with -32602', async () => {
    for (const chainId of ['abc', 1.5, null, {}])
      expect(await codeOf(sign(eth('eth_signTypedData_v4', [me, JSON.stringify(mail(chainId))])))).toBe(
        -32602,
      )
  })
})

describe('eth_sendTransaction on anvil', () => {
  const funded = async (wei: bigint) => {
    await chain.test.setBalance({ address: me, value: wei })
    return wei
  }
  const balance = (address: Address) => chain.client.getBalance({ address })
  const nonce = () => chain.client.getTransactionCount({ address: me })

  it('fills nonce, gas and EIP-1559 fees, signs, sends, and the chain moves exactly that', async () => {
    const start = await funded(parseEther('1'))
    const to = fresh()
    const hash = (await sign(
      eth('eth_sendTransaction', [{ from: me, to, value: toHex(parseEther('0.25')) }]),
    )) as Hex
    const receipt = await chain.client.waitForTransactionReceipt({ hash })
    const sent = await chain.client.getTransaction({ hash })
    expect(receipt).toMatchObject({ status: 'success', from: me.toLowerCase(), to })
    expect(sent).toMatchObject({ type: 'eip1559', chainId: 31337, gas: 25_200n })
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber - 1n })
    expect(sent.maxFeePerGas).toBe((block.baseFeePerGas ?? 0n) * 2n + (sent.maxPriorityFeePerGas ?? 0n))
    expect(await balance(to)).toBe(parseEther('0.25'))
    expect(await balance(me)).toBe(start - parseEther('0.25') - receipt.gasUsed * receipt.effectiveGasPrice)
  })

  it('keeps what the dApp set: a legacy gasPrice, the gas, the nonce, the data', async () => {
    const start = await funded(parseEther('1'))
    const to = fresh()
    const gasPrice = parseGwei('7')
    const hash = (await sign(
      eth('eth_sendTransaction', [
        {
          to,
          value: '0x2a',
          gas: toHex(30_000),
          gasPrice: toHex(gasPrice),
          nonce: toHex(await nonce()),
          data: '0x1234',
        },
      ]),
    )) as Hex
    const receipt = await chain.client.waitForTransactionReceipt({ hash })
    const sent = await chain.client.getTransaction({ hash })
    expect(sent).toMatchObject({ type: 'legacy', gasPrice, gas: 30_000n, input: '0x1234', chainId: 31337 })
    expect(receipt.status).toBe('success')
    expect(await balance(to)).toBe(42n)
    expect(await balance(me)).toBe(start - 42n - receipt.gasUsed * gasPrice)
  })

  it('refuses a transaction for another chain (4901) and sends nothing', async () => {
    await funded(parseEther('1'))
    const before = await nonce()
    const to = fresh()
    for (const chainId of ['0x1', toHex(31338)])
      expect(await codeOf(sign(eth('eth_sendTransaction', [{ to, value: '0x1', chainId }])))).toBe(4901)
    // Its own chain, said in full, is taken.
    const hash = (await sign(
      eth('eth_sendTransaction', [{ to, value: '0x1', chainId: toHex(31337) }]),
    )) as Hex
    await chain.client.waitForTransactionReceipt({ hash })
    expect(await nonce()).toBe(before + 1)
    expect(await balance(to)).toBe(1n)
  })

  it('passes the node’s refusal on with its code when the wallet cannot pay', async () => {
    await funded(0n)
    const before = await nonce()
    const refusal = sign(eth('eth_sendTransaction', [{ to: fresh(), value: toHex(parseEther('1')) }]))
    await expect(refusal).rejects.toMatchObject({
      code: -32003,
      message: 'Insufficient funds for gas * price + value',
    })
    expect(await nonce()).toBe(before)
  })
})

describe('Solana signatures', () => {
  const other = Keypair.fromSeed(new Uint8Array(32).fill(7))
  const mine = () => new PublicKey(wallet.addresses.solana)
  const solanaRequest = (method: string, params: Record<string, unknown>) =>
    ({ namespace: 'solana', method, params }) as Request
  const blockhash = async () =>
    (
      (await rpc(sol, 'getLatestBlockhash', [{ commitment: 'confirmed' }])) as {
        value: { blockhash: string }
      }
    ).value.blockhash
  const transfer = (from: PublicKey, to: PublicKey, lamports: number) =>
    SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })

  it('signs a message that verifies under the wallet’s key, and only for its address', async () => {
    const message = new TextEncoder().encode('Sign in to the shop')
    const result = (await sign(
      solanaRequest('solana:signMessage', { address: wallet.addresses.solana, message }),
      sol,
    )) as { signedMessage: Uint8Array; signature: Uint8Array }
    expect(result.signedMessage).toEqual(message)
    expect(ed25519.verify(result.signature, message, wallet.solanaKey)).toBe(true)
    expect(ed25519.verify(result.signature, message, other.publicKey.toBytes())).toBe(false)
    expect(
      await codeOf(
        sign(solanaRequest('solana:signMessage', { address: other.publicKey.toBase58(), message }), sol),
      ),
    ).toBe(4100)
  })

  it('refuses a transfer’s compiled message handed over as a message (-32602), and signs nothing', async () => {
    const message = new Transaction({ feePayer: mine(), recentBlockhash: await blockhash() })
      .add(transfer(mine(), other.publicKey, 1_000_000_000))
      .serializeMessage()
    const asked = solanaRequest('solana:signMessage', { address: wallet.addresses.solana, message })
    await expect(sign(asked, sol)).rejects.toMatchObject({
      code: -32602,
      message: Message.transactionAsMessage,
    })
  })

  it('puts its signature in its own slot and keeps the other signer’s', async () => {
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: await blockhash() }).add(
      transfer(mine(), other.publicKey, 5),
    )
    tx.partialSign(other)
    const wire = tx.serialize({ requireAllSignatures: false })
    const { signedTransaction } = (await sign(
      solanaRequest('solana:signTransaction', { address: wallet.addresses.solana, transaction: wire }),
      sol,
    )) as { signedTransaction: Uint8Array }
    const signed = Transaction.from(signedTransaction)
    expect(signed.signatures.map((entry) => entry.publicKey.toBase58())).toEqual([
      other.publicKey.toBase58(),
      wallet.addresses.solana,
    ])
    const [theirs, ours] = signed.signatures.map((entry) => entry.signature)
    expect(theirs).toEqual(tx.signatures[0]?.signature)
    expect(ours && ed25519.verify(ours, tx.serializeMessage(), wallet.solanaKey)).toBe(true)
    expect(signed.verifySignatures()).toBe(true)
  })

  it('refuses a transaction that does not ask for its signature (-32602), or another address (4100)', async () => {
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: await blockhash() }).add(
      transfer(other.publicKey, mine(), 5),
    )
    const transaction = tx.serialize({ requireAllSignatures: false })
    for (const method of ['solana:signTransaction', 'solana:signAndSendTransaction'])
      expect(
        await codeOf(
          sign(solanaRequest(method, { address: wallet.addresses.solana, transaction, chain: sol }), sol),
        ),
      ).toBe(-32602)
    expect(
      await codeOf(
        sign(
          solanaRequest('solana:signTransaction', { address: other.publicKey.toBase58(), transaction }),
          sol,
        ),
      ),
    ).toBe(4100)
  })

  it('signs and sends through the relay; the chain moves exactly the amount', async () => {
    await solana.airdrop(wallet.addresses.solana as Parameters<Solana.Instance['airdrop']>[0], 1_000_000_000n)
    const to = Keypair.generate().publicKey
    const tx = new Transaction({ feePayer: mine(), recentBlockhash: await blockhash() }).add(
      transfer(mine(), to, 1_234_567),
    )
    const { signature } = (await sign(
      solanaRequest('solana:signAndSendTransaction', {
        address: wallet.addresses.solana,
        transaction: tx.serialize({ requireAllSignatures: false }),
        chain: sol,
      }),
      sol,
    )) as { signature: Uint8Array }
    expect(ed25519.verify(signature, tx.serializeMessage(), wallet.solanaKey)).toBe(true)
    const balanceOf = async (key: PublicKey) =>
      ((await rpc(sol, 'getBalance', [key.toBase58(), { commitment: 'processed' }])) as { value: number })
        .value
    await expect.poll(() => balanceOf(to), { timeout: 10_000 }).toBe(1_234_567)
    const status = (await rpc(sol, 'getSignatureStatuses', [[base58.encode(signature)]])) as {
      value: ({ err: unknown } | null)[]
    }
    expect(status.value[0]).toMatchObject({ err: null })
  })
})

describe('the simulation ApproveTransaction shows', () => {
  const network: Network = {
    id: evm,
    namespace: 'eip155',
    name: 'Anvil',
    nativeCurrency: ether,
    rpcUrl: '',
    testnet: true,
  }

  it('names what leaves the wallet, from the node’s traced transfers, before anything is signed', async () => {
    await chain.test.setBalance({ address: me, value: 10n ** 18n })
    const nonce = await chain.client.getTransactionCount({ address: me })
    const to = privateKeyToAccount(generatePrivateKey()).address
    const outcome = await simulate(rpc, evm, me, { to, value: toHex(25n * 10n ** 16n) }, network, 'en-US')
    expect(outcome).toEqual({
      rows: [{ label: 'Balance change (simulated)', value: '−0.25 ETH' }],
      warnings: [],
    })
    // Nothing was sent: the nonce and the receiver are as they were.
    expect(await chain.client.getTransactionCount({ address: me })).toBe(nonce)
    expect(await chain.client.getBalance({ address: to })).toBe(0n)
  })

  it('warns that a transaction would fail, and names no balance change for it', async () => {
    const reverting = privateKeyToAccount(generatePrivateKey()).address
    // PUSH1 0 PUSH1 0 REVERT: every call fails, with no reason given.
    await chain.test.setCode({ address: reverting, bytecode: '0x60006000fd' })
    expect(await simulate(rpc, evm, me, { to: reverting, data: '0x12345678' }, network)).toEqual({
      rows: [],
      warnings: ['The network expects this transaction to fail.'],
    })
  })
})
