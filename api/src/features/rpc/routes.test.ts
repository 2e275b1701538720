// The devnet by path, not as a package: the devnet's stack runs this service, so a package dependency would be
// a cycle (as in balances/routes.test.ts).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Wallet as EthersWallet, JsonRpcProvider } from 'ethers'
import { type Address, createPublicClient, createWalletClient, type Hex, http, parseEther, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../../../../devnet/src/Accounts.ts'
import * as Anvil from '../../../../devnet/src/Anvil.ts'
import * as Solana from '../../../../devnet/src/solana/Solana.ts'
import type * as Config from '../../Config.ts'
import type { Database } from '../../Database.ts'
import { messages as httpMessages } from '../../http/errors.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { configOf, ether, modalOrigin } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import { sendSol, wallet } from '../history/families/solanaTesting.ts'
import * as Projects from '../projects/Projects.ts'
import { maxBatch } from './Envelope.ts'
import { messages } from './messages.ts'
import { bounds } from './Params.ts'

const evm = 'eip155:31338'
const bitcoin = 'bip122:000000000019d6689c085ae165831e93'
const sol = { name: 'Solana', symbol: 'SOL', decimals: 9 }
const [sender, unlocked] = Accounts.all() as [Accounts.Account, Accounts.Account]
/** Addresses nobody has used: their balance is 0 until a test sends to them. */
const fresh = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
/** Given `PUSH1 0 CALLDATALOAD PUSH1 0 RETURN`: answers as many zero bytes as its calldata's first word says. */
const returner = fresh(0xa1b0c)
const mib = 1024 * 1024

let anvil: Anvil.Instance
let solana: Solana.Instance
let db: Database
let api: Service.Running
let config: Config.Config
/** Upstreams that fail in ways a real node may: an HTML error page, one answer to anything, and silence. */
let nonJson: Server
let confused: Server
let silent: Server
/** Requests the silent upstream received and saw closed (aborted) by the API. */
const silentRequests = { received: 0, closed: 0 }

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

beforeAll(async () => {
  ;[anvil, solana] = await Promise.all([
    closedPort().then((port) => Anvil.start({ port, chainId: 31338 })),
    Solana.start({ port: 0 }),
  ])
  nonJson = createServer((_, response) => response.end('<html>Bad gateway</html>'))
  confused = createServer((_, response) => response.end('{"jsonrpc":"2.0","id":0,"result":"0x1"}'))
  silent = createServer((request) => {
    silentRequests.received++
    request.socket.on('close', () => silentRequests.closed++)
  })
  const chains: Config.Chain[] = [
    { id: evm, name: 'Anvil', rpcUrl: anvil.rpcUrl, nativeCurrency: ether },
    { id: Solana.caipNetworkId, name: 'Solana Devnet', rpcUrl: solana.rpcUrl, nativeCurrency: sol },
    {
      id: 'eip155:999',
      name: 'Dead',
      rpcUrl: `http://127.0.0.1:${await closedPort()}`,
      nativeCurrency: ether,
    },
    { id: 'eip155:998', name: 'Not JSON', rpcUrl: await listen(nonJson), nativeCurrency: ether },
    { id: 'eip155:996', name: 'Confused', rpcUrl: await listen(confused), nativeCurrency: ether },
    { id: 'eip155:997', name: 'Silent', rpcUrl: await listen(silent), nativeCurrency: ether },
    { id: bitcoin, name: 'Bitcoin', rpcUrl: `http://127.0.0.1:${await closedPort()}`, nativeCurrency: ether },
  ]
  const [pglite] = databases()
  if (!pglite) throw new Error('no test database')
  db = await pglite.open()
  await Projects.add(db, 'demo', ['http://localhost:*'])
  // A request's own time-out, long: the 4 MiB answers and batches must not meet it on a busy machine. The
  // silent node's test has an API of its own with a short one.
  config = { ...configOf(chains), limits: { requestTimeoutMs: 120_000 } }
  api = await Service.listen(Service.create({ db, config }), { apiPort: 0, modalPort: 0 })
  await direct(anvil.rpcUrl, 'anvil_setCode', [returner, '0x6000356000f3'])
})

afterAll(async () => {
  await api?.stop()
  for (const server of [nonJson, confused, silent]) {
    server?.closeAllConnections()
    server?.close()
  }
  await Promise.all([anvil?.stop(), solana?.stop()])
  await db?.close()
})

const relayUrl = (chainId: string, query = 'projectId=demo', at = api.apiUrl) =>
  `${at}/v1/rpc/${chainId}?${query}`

type Answer = { status: number; text: string; body: unknown; headers: Headers }

async function post(
  chainId: string,
  body: unknown,
  init: { query?: string; raw?: boolean; at?: string } = {},
) {
  const response = await fetch(relayUrl(chainId, init.query, init.at), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: init.raw ? (body as string) : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text), headers: response.headers } as Answer
}

const call = (method: string, params: unknown[] = [], id: string | number | null = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
})

/** Straight to a node, bypassing the API: what the chain really holds. */
async function direct(rpcUrl: string, method: string, params: unknown[]): Promise<string> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(call(method, params)),
  })
  return response.text()
}
const balanceOf = async (address: string) =>
  BigInt(
    (JSON.parse(await direct(anvil.rpcUrl, 'eth_getBalance', [address, 'latest'])) as { result: string })
      .result,
  )
const lamportsOf = async (address: string) => {
  const answer = await direct(solana.rpcUrl, 'getBalance', [address, { commitment: 'confirmed' }])
  return (JSON.parse(answer) as { result: { value: number } }).result.value
}
/** A Solana answer's `value` as the text says it: past 2^53, JSON.parse would round it. */
const valueIn = (text: string) => /"value":(\d+)/.exec(text)?.[1]

const refusal = (method: string, id: string | number | null = 1) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32601, message: messages.notRelayed(method) },
})

describe('POST /v1/rpc/{chainId}', () => {
  it('passes an allowed read to the node and answers what it answered', async () => {
    expect(await post(evm, call('eth_chainId', [], 'a'))).toMatchObject({
      status: 200,
      body: { jsonrpc: '2.0', id: 'a', result: '0x7a6a' },
    })
    const faucet = call('getBalance', [solana.faucet, { commitment: 'processed' }])
    const relayed = await post(Solana.caipNetworkId, faucet)
    expect(relayed).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 1, result: { context: {} } } })
    // The slot may have moved on between the two reads; the faucet's balance has not.
    expect(valueIn(relayed.text)).toMatch(/^\d+$/)
    expect(valueIn(relayed.text)).toBe(valueIn(await direct(solana.rpcUrl, 'getBalance', faucet.params)))
  })

  it('keeps the text of the answer, so integers past 2^53 stay exact', async () => {
    const account = call('getAccountInfo', [solana.faucet, { encoding: 'base64' }])
    const { text } = await post(Solana.caipNetworkId, account)
    expect(text).toContain('"rentEpoch":18446744073709551615')
  })

  it('simulates with eth_simulateV1, and nothing happens on chain', async () => {
    const to = fresh(0x51)
    const simulation = {
      blockStateCalls: [{ calls: [{ from: sender.address, to, value: '0xde0b6b3a7640000' }] }],
    }
    const { status, body } = await post(evm, call('eth_simulateV1', [simulation, 'latest']))
    expect(status).toBe(200)
    expect(body).toMatchObject({ result: [{ calls: [{ status: '0x1' }] }] })
    expect(await balanceOf(to)).toBe(0n)
  })

  it('broadcasts a transaction a viem account signed locally, and it lands', async () => {
    const transport = http(relayUrl(evm))
    const chain = {
      id: 31338,
      name: 'Anvil',
      nativeCurrency: ether,
      rpcUrls: { default: { http: [relayUrl(evm)] } },
    } as const
    const account = privateKeyToAccount(sender.privateKey)
    const client = createWalletClient({ account, chain, transport })
    const to = fresh(0x52)
    // viem reads the chain id, nonce, fees and gas through the relay, signs here, then eth_sendRawTransaction.
    const hash = await client.sendTransaction({ to, value: parseEther('1.5') })
    const reader = createPublicClient({ chain, transport })
    expect((await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
    expect(await balanceOf(to)).toBe(parseEther('1.5'))
    expect(await reader.getBalance({ address: to })).toBe(parseEther('1.5'))
  })

  it('answers ethers as it answers viem: a transaction signed by an ethers Wallet lands', async () => {
    // ethers posts its calls (and batches of them) as application/json, which the relay requires.
    const provider = new JsonRpcProvider(relayUrl(evm), 31338, { staticNetwork: true, pollingInterval: 50 })
    const signer = new EthersWallet(sender.privateKey, provider)
    const to = fresh(0x5e)
    const sent = await signer.sendTransaction({ to, value: parseEther('0.25') })
    expect((await sent.wait())?.status).toBe(1)
    expect(await provider.getBalance(to)).toBe(parseEther('0.25'))
    provider.destroy()
  })

  it('relays a Solana transfer signed elsewhere: blockhash, sendTransaction, statuses', async () => {
    const [alice, bob] = [wallet('rpc relay alice'), wallet('rpc relay bob')]
    await solana.airdrop(alice.address as Solana.Instance['faucet'], 1_000_000_000n)
    await sendSol(relayUrl(Solana.caipNetworkId), alice, bob.address, 250_000_000n)
    expect(await lamportsOf(bob.address)).toBe(250_000_000)
  })

  it('refuses methods that make the node sign or change its state, without asking it', async () => {
    const to = fresh(0x53)
    const nonce = () => direct(anvil.rpcUrl, 'eth_getTransactionCount', [unlocked.address, 'latest'])
    const before = await nonce()
    // anvil would do both: its accounts are unlocked, and it takes cheat codes.
    const send = call('eth_sendTransaction', [{ from: unlocked.address, to, value: '0x1' }], 7)
    expect(await post(evm, send)).toMatchObject({ status: 200, body: refusal('eth_sendTransaction', 7) })
    const setBalance = call('anvil_setBalance', [to, '0xde0b6b3a7640000'], 'x')
    expect(await post(evm, setBalance)).toMatchObject({ status: 200, body: refusal('anvil_setBalance', 'x') })
    for (const method of ['eth_sign', 'personal_sign', 'evm_mine', 'eth_newFilter', 'eth_subscribe']) {
      expect((await post(evm, call(method))).body).toEqual(refusal(method))
    }
    expect(await balanceOf(to)).toBe(0n)
    expect(await nonce()).toBe(before)
    const stranger = wallet('rpc relay stranger').address
    const airdrop = call('requestAirdrop', [stranger, 1_000_000_000], null)
    expect((await post(Solana.caipNetworkId, airdrop)).body).toEqual(refusal('requestAirdrop', null))
    expect(await lamportsOf(stranger)).toBe(0)
    // The dead node was never asked: a refusal, not a 502.
    expect(await post('eip155:999', call('eth_sign'))).toMatchObject({
      status: 200,
      body: refusal('eth_sign'),
    })
    // Allow-lists are per family: a Solana method is not an EVM one.
    expect((await post(evm, call('getBalance', [sender.address]))).body).toEqual(refusal('getBalance'))
  })

  it('answers a batch call by call: allowed ones from the node, the others refused', async () => {
    const to = fresh(0x54)
    const { status, body } = await post(evm, [
      call('eth_chainId', [], 1),
      call('anvil_setBalance', [to, '0x1'], 2),
      call('eth_getBalance', [to, 'latest'], 'three'),
      call('eth_sendTransaction', [{ from: unlocked.address, to, value: '0x1' }], null),
    ])
    expect(status).toBe(200)
    const answers = body as { id: unknown }[]
    expect(answers).toHaveLength(4)
    const byId = new Map(answers.map((answer) => [answer.id, answer]))
    expect(byId.get(1)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a6a' })
    expect(byId.get(2)).toEqual(refusal('anvil_setBalance', 2))
    expect(byId.get('three')).toEqual({ jsonrpc: '2.0', id: 'three', result: '0x0' })
    expect(byId.get(null)).toEqual(refusal('eth_sendTransaction', null))
    expect(await balanceOf(to)).toBe(0n)
    // A batch of one is answered as a batch; a batch of refusals needs no node at all.
    expect((await post(evm, [call('eth_blockNumber')])).body).toEqual([expect.objectContaining({ id: 1 })])
    expect(await post('eip155:999', [call('evm_mine', [], 1), call('eth_sign', [], 2)])).toMatchObject({
      status: 200,
      body: [refusal('evm_mine', 1), refusal('eth_sign', 2)],
    })
    const full = Array.from({ length: maxBatch }, (_, i) => call('eth_chainId', [], i))
    expect(((await post(evm, full)).body as unknown[]).length).toBe(maxBatch)
  })

  it("refuses params that bend the node's state or make one call cost many, without asking it", async () => {
    const invalid = (reason: string, id: string | number = 1) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32602, message: messages.invalidParams(reason) },
    })
    const blank = fresh(0x55)
    const tx = { from: sender.address, to: blank }
    // `PUSH1 0xff PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`: anvil runs it in place of the address's no code.
    const override = { [blank]: { code: '0x60ff60005260206000f3' } }
    const overridden = await direct(anvil.rpcUrl, 'eth_call', [tx, 'latest', override])
    expect(JSON.parse(overridden)).toMatchObject({ result: toHex(0xff, { size: 32 }) })
    const noOverrides = invalid(messages.noOverrides('eth_call'))
    expect(await post(evm, call('eth_call', [tx, 'latest', override]))).toMatchObject({
      status: 200,
      body: noOverrides,
    })
    expect((await post(evm, call('eth_call', [tx, 'latest', null, { number: '0x1' }]))).body).toEqual(
      noOverrides,
    )
    expect((await post(evm, call('eth_call', [tx, 'latest', null]))).body).toMatchObject({ result: '0x' })
    expect((await post(evm, call('eth_estimateGas', [tx, 'latest', override]))).body).toEqual(
      invalid(messages.noOverrides('eth_estimateGas')),
    )
    expect((await post(evm, { ...call('eth_call'), params: { transaction: tx } })).body).toEqual(
      invalid(messages.byPosition('eth_call')),
    )
    // The dead node was never asked: a refusal, not a 502.
    expect(await post('eip155:999', call('eth_call', [tx, 'latest', override]))).toMatchObject({
      status: 200,
      body: noOverrides,
    })

    const calls = (n: number) =>
      Array.from({ length: n }, () => ({ from: sender.address, to: blank, value: '0x1' }))
    const simulate = (simulation: object) => post(evm, call('eth_simulateV1', [simulation, 'pending']))
    const simulated = (await simulate({ blockStateCalls: [{ calls: calls(bounds.simulatedCalls) }] })).body
    expect((simulated as { result: [{ calls: unknown[] }] }).result[0].calls).toHaveLength(8)
    // The shape of what the modal's Send asks.
    const send = { blockStateCalls: [{ calls: calls(1) }], traceTransfers: true, validation: true }
    expect((await simulate(send)).body).toMatchObject({ result: [{ calls: [{ status: '0x1' }] }] })
    const refusals: [object, string][] = [
      [
        { blockStateCalls: [{ calls: calls(1) }, { calls: calls(1) }] },
        messages.atMost('eth_simulateV1', 1, 'block'),
      ],
      [{ blockStateCalls: [{ calls: calls(9) }] }, messages.atMost('eth_simulateV1', 8, 'calls')],
      [
        { blockStateCalls: [{ calls: calls(1), stateOverrides: override }] },
        messages.noOverrides('eth_simulateV1'),
      ],
      // geth reads keys in any case.
      [
        { blockStateCalls: [{ calls: calls(1), StateOverrides: override }] },
        messages.noOverrides('eth_simulateV1'),
      ],
      [
        { blockStateCalls: [{ calls: calls(1), blockOverrides: { time: '0x1' } }] },
        messages.noOverrides('eth_simulateV1'),
      ],
      [
        { blockStateCalls: [{ calls: calls(1) }], BlockStateCalls: [] },
        messages.noKey('eth_simulateV1', 'BlockStateCalls'),
      ],
    ]
    for (const [simulation, reason] of refusals)
      expect((await simulate(simulation)).body, JSON.stringify(simulation)).toEqual(invalid(reason))
    expect(await balanceOf(blank)).toBe(0n)

    const accounts = (n: number) =>
      call('getMultipleAccounts', [Array(n).fill(solana.faucet), { encoding: 'base64' }])
    const hundred = (await post(Solana.caipNetworkId, accounts(bounds.accounts))).body
    expect((hundred as { result: { value: unknown[] } }).result.value).toHaveLength(100)
    expect((await post(Solana.caipNetworkId, accounts(101))).body).toEqual(
      invalid(messages.atMost('getMultipleAccounts', 100, 'keys')),
    )

    // In a batch, the others still go through.
    const batch = (
      await post(evm, [call('eth_chainId', [], 1), call('eth_call', [tx, 'latest', override], 2)])
    ).body as { id: unknown }[]
    expect(new Map(batch.map((answer) => [answer.id, answer]))).toEqual(
      new Map<unknown, unknown>([
        [1, { jsonrpc: '2.0', id: 1, result: '0x7a6a' }],
        [2, invalid(messages.noOverrides('eth_call'), 2)],
      ]),
    )
  })

  it("answers 502 when the node's answer is over 4 MiB, and goes on relaying", async () => {
    const returning = (bytes: number) =>
      call('eth_call', [{ to: returner, data: toHex(bytes, { size: 32 }) }, 'latest'])
    const under = await post(evm, returning(1.5 * mib))
    expect(under.status).toBe(200)
    expect((under.body as { result: Hex }).result).toHaveLength(2 + 3 * mib)
    const tooLarge = { status: 502, body: { message: messages.answerTooLarge } }
    expect(await post(evm, returning(2.5 * mib))).toMatchObject(tooLarge)
    expect(await post(evm, [call('eth_chainId'), returning(2.5 * mib)])).toMatchObject(tooLarge)
    expect((await post(evm, call('eth_chainId'))).body).toMatchObject({ result: '0x7a6a' })
  })

  it("counts each call of a batch against the client's and the project's budgets", async () => {
    const chains = [{ id: evm, name: 'Anvil', rpcUrl: anvil.rpcUrl, nativeCurrency: ether }]
    const batch = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => call('eth_chainId', [], i)))
    for (const limits of [
      { perClient: { burst: 30, perSecond: 0.001 } },
      { perProject: { burst: 30, perSecond: 0.001 } },
    ]) {
      const limited = await Service.listen(Service.create({ db, config: { ...configOf(chains), limits } }), {
        apiPort: 0,
      })
      const send = async (body: string) => {
        const response = await fetch(`${limited.apiUrl}/v1/rpc/${evm}?projectId=demo`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        })
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json(),
        }
      }
      try {
        // 30 tokens: a batch of 20 leaves 10; the next batch of 20 pays 1 to come in and cannot pay its 19 more.
        expect((await send(batch(20))).status).toBe(200)
        expect(await send(batch(20))).toEqual({
          status: 429,
          retryAfter: '10000',
          body: { message: httpMessages.tooManyRequests },
        })
        expect((await send(batch(9))).body).toHaveLength(9)
        expect((await send(JSON.stringify(call('eth_chainId')))).status).toBe(429)
      } finally {
        await limited.stop()
      }
    }
  })

  it('refuses a body that is not a JSON-RPC request with 400 and the JSON-RPC error', async () => {
    const invalid = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }
    expect(await post(evm, '{"jsonrpc": "2.0",', { raw: true })).toMatchObject({
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    })
    const { id: _, ...noId } = call('eth_chainId')
    const bad: unknown[] = [
      {},
      'eth_chainId',
      42,
      [],
      { ...call('eth_chainId'), jsonrpc: '1.0' },
      noId,
      { ...call('eth_chainId'), id: true },
      { ...call('eth_chainId'), id: { nested: 1 } },
      { ...call('eth_chainId'), method: 7 },
      { ...call('eth_chainId'), method: '' },
      { ...call('eth_chainId'), method: `eth_${'x'.repeat(61)}` },
      { ...call('eth_chainId'), params: 'latest' },
      [call('eth_chainId'), { ...call('eth_chainId'), jsonrpc: undefined }],
      Array.from({ length: maxBatch + 1 }, (_, i) => call('eth_chainId', [], i)),
    ]
    for (const body of bad) {
      const answer = await post(evm, body)
      expect(answer, JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 400, body: invalid })
      expect((answer.body as { error: { data: unknown } }).error.data).toEqual(expect.any(String))
    }
    // Params as an object are JSON-RPC too: passed on, and anvil answers what it thinks of them.
    const named = await post(evm, { ...call('eth_chainId'), params: {} })
    expect(named.status).toBe(200)
    expect(named.body).toMatchObject({ id: 1, error: { code: -32602 } })
    // Past the API's body limit, the usual 413.
    const huge = await post(evm, call('eth_call', [{ data: `0x${'00'.repeat(40_000)}` }, 'latest']))
    expect(huge).toMatchObject({ status: 413, body: { message: httpMessages.tooLarge } })
  })

  it('answers 404 for a chain it relays nothing for', async () => {
    for (const chainId of ['eip155:12345', 'solana:unknown', 'cosmos:cosmoshub-4', 'nonsense']) {
      expect(await post(chainId, call('eth_chainId'))).toMatchObject({
        status: 404,
        body: { message: httpMessages.unsupportedChain(chainId) },
      })
    }
    expect(await post(bitcoin, call('getblockcount'))).toMatchObject({
      status: 404,
      body: { message: messages.esploraOnly(bitcoin) },
    })
    expect(messages.esploraOnly(bitcoin)).toContain('/v1/bip122/000000000019d6689c085ae165831e93/esplora')
  })

  it('answers 502 when the node is down or does not answer JSON-RPC', async () => {
    for (const chainId of ['eip155:999', 'eip155:998']) {
      expect(await post(chainId, call('eth_chainId'))).toMatchObject({
        status: 502,
        body: { message: httpMessages.rpcUnavailable(chainId) },
      })
    }
    // One answer is an answer to one call, not to a batch.
    expect((await post('eip155:996', call('eth_chainId'))).status).toBe(200)
    expect(await post('eip155:996', [call('eth_chainId')])).toMatchObject({
      status: 502,
      body: { message: httpMessages.rpcUnavailable('eip155:996') },
    })
  })

  it('lets go of a silent node at the request time-out', async () => {
    const short = await Service.listen(
      Service.create({ db, config: { ...config, limits: { requestTimeoutMs: 1_000 } } }),
      { apiPort: 0 },
    )
    try {
      // The node never answers: only the time-out can.
      expect(await post('eip155:997', call('eth_chainId'), { at: short.apiUrl })).toMatchObject({
        status: 503,
        body: { message: httpMessages.timedOut },
      })
      await expect.poll(() => silentRequests).toEqual({ received: 1, closed: 1 })
    } finally {
      await short.stop()
    }
  })

  it('requires a configured project', async () => {
    expect(await post(evm, call('eth_chainId'), { query: '' })).toMatchObject({
      status: 400,
      body: { message: 'projectId: expected a string of 1..64 characters' },
    })
    expect(await post(evm, call('eth_chainId'), { query: 'projectId=nope' })).toMatchObject({
      status: 403,
      body: { message: httpMessages.projectNotConfigured },
    })
  })

  it('answers the modal origin, preflight included', async () => {
    const preflight = await fetch(relayUrl(evm), {
      method: 'OPTIONS',
      headers: {
        Origin: modalOrigin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(modalOrigin)
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
    const response = await fetch(relayUrl(evm), {
      method: 'POST',
      headers: { Origin: modalOrigin, 'Content-Type': 'application/json' },
      body: JSON.stringify(call('eth_chainId')),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(modalOrigin)
    expect(response.headers.get('content-type')).toContain('application/json')
    const elsewhere = await fetch(relayUrl(evm), {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify(call('eth_chainId')),
    })
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull()
  })
})
