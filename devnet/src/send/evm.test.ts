import { createServer, type Server } from 'node:http'
import * as ModalChain from '@airlock/modal-app/send/chain'
import { family } from '@airlock/modal-app/send/families/evm'
import { type Chain, type Draft, SendFailure, type WalletRequest } from '@airlock/modal-app/send/family'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  isAddressEqual,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Accounts from '../Accounts.ts'
import * as Anvil from '../Anvil.ts'
import { devnetTokens } from '../Chains.ts'
import { choosePort } from '../Process.ts'
import { testTokenAbi, testTokenBytecode } from '../TestToken.ts'

const eth = { symbol: 'ETH', decimals: 18 }
const network = {
  id: 'eip155:31337',
  namespace: 'eip155',
  name: 'Send Test Chain',
  nativeCurrency: { name: 'Ether', ...eth },
  rpcUrl: '',
  testnet: true,
} as const

const deployer = account(0)
const funded = parseUnits('1000', 18)

function account(index: number): Accounts.Account {
  const found = Accounts.all()[index]
  if (!found) throw new Error(`no account ${index}`)
  return found
}

/** The modal's Chain on the node itself: no API in these tests, so the node stands where its relay would. */
function chainAt(rpcUrl: string): Chain {
  return ModalChain.create({ network: { ...network, rpcUrl }, endpoint: () => rpcUrl })
}

/** A fresh address with nothing on it, so what it holds after a send is exactly what was sent. */
const stranger = () => privateKeyToAccount(generatePrivateKey()).address

async function rpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
  if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
  return answer.result
}

/**
 * A wallet as the e2e test wallet is one: a local key signs the transaction it is given, on its own chain,
 * and broadcasts it. `afterBroadcast: 'lose the answer'` plays a wallet whose answer never arrives.
 */
function localWallet(privateKey: Hex, rpcUrl: string, afterBroadcast?: 'lose the answer') {
  const signer = privateKeyToAccount(privateKey)
  const requests: Parameters<WalletRequest>[0][] = []
  const request: WalletRequest = async (req) => {
    requests.push(req)
    if (req.namespace !== 'eip155' || req.method !== 'eth_sendTransaction' || !Array.isArray(req.params))
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    const tx = req.params[0] as Record<string, Hex>
    if (!tx.from || !isAddressEqual(tx.from, signer.address))
      throw Object.assign(new Error('not this wallet'), { code: 4100 })
    const signed = await signer.signTransaction({
      type: 'eip1559',
      chainId: foundry.id,
      to: tx.to,
      value: BigInt(tx.value ?? '0x0'),
      data: tx.data,
      gas: BigInt(tx.gas ?? '0x0'),
      nonce: Number(tx.nonce),
      maxFeePerGas: BigInt(tx.maxFeePerGas ?? '0x0'),
      maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas ?? '0x0'),
    })
    const hash = await rpc(rpcUrl, 'eth_sendRawTransaction', [signed])
    if (afterBroadcast) throw Object.assign(new Error('The wallet stopped answering'), { code: 4900 })
    return hash
  }
  return { address: signer.address, request, requests }
}

const refusingWallet: WalletRequest = async () => {
  throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
}

async function failureOf(promise: Promise<unknown>): Promise<SendFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof SendFailure)) throw new Error(`expected a SendFailure, got ${String(error)}`)
  return error
}

/** A node without `eth_simulateV1` (-32601), otherwise the anvil behind it. */
function nodeWithoutSimulate(upstream: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const call = JSON.parse(body) as { id: number; method: string }
    res.setHeader('content-type', 'application/json')
    if (call.method === 'eth_simulateV1') {
      const error = { code: -32601, message: 'the method eth_simulateV1 does not exist/is not available' }
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error }))
      return
    }
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    res.end(await answer.text())
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}`, server })
    }),
  )
}

describe('EVM send family', () => {
  let node: Anvil.Instance
  let chain: Chain
  let token: Address
  let wallet: ReturnType<typeof localWallet>
  const reader = () => createPublicClient({ chain: foundry, transport: http(node.rpcUrl) })
  const alt = () => ({ symbol: 'ALT', decimals: 18, address: token })
  const ethBalance = (address: Address) => reader().getBalance({ address })
  const altBalance = (address: Address) =>
    reader().readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [address] })
  const draft = (fields: Partial<Draft> & Pick<Draft, 'to' | 'amount'>): Draft => ({
    from: wallet.address,
    asset: eth,
    ...fields,
  })
  /** The fee the chain really took for a transaction. */
  const feePaid = async (hash: string) => {
    const receipt = await reader().getTransactionReceipt({ hash: hash as Hex })
    return receipt.gasUsed * receipt.effectiveGasPrice
  }

  beforeAll(async () => {
    node = await Anvil.start({ port: await choosePort('127.0.0.1', 0), chainId: foundry.id })
    chain = chainAt(node.rpcUrl)
    // Account 7 is the wallet here and nowhere else; account 0 deploys and funds, as the devnet does.
    wallet = localWallet(account(7).privateKey, node.rpcUrl)
    const admin = createWalletClient({
      account: deployer.address,
      chain: foundry,
      transport: http(node.rpcUrl),
    })
    const deployed = await reader().waitForTransactionReceipt({
      hash: await admin.deployContract({
        abi: testTokenAbi,
        bytecode: testTokenBytecode,
        args: [devnetTokens.ALT.name, devnetTokens.ALT.symbol, devnetTokens.ALT.decimals],
      }),
      pollingInterval: 50,
    })
    if (!deployed.contractAddress) throw new Error('the test token was not deployed')
    token = deployed.contractAddress
    for (const holder of [wallet.address, account(8).address]) {
      const hash = await admin.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [holder, funded],
      })
      await reader().waitForTransactionReceipt({ hash, pollingInterval: 50 })
    }
  })
  afterAll(() => node?.stop())

  it('sends ETH: the preview simulates the transfer with the fee, and the chain moves exactly that', async () => {
    const to = stranger()
    const amount = parseEther('1.5')
    const before = await ethBalance(wallet.address)
    const preview = await family.preview(chain, draft({ to, amount }))
    expect(preview.fee).toBeGreaterThan(0n)
    expect(preview.changes).toEqual([
      { address: wallet.address, asset: eth, delta: -(amount + preview.fee) },
      { address: to, asset: eth, delta: amount },
    ])
    expect(preview.details.map((d) => d.label)).toEqual(['Nonce', 'Max network fee'])

    const hash = await family.submit(chain, preview, wallet.request)
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await family.settle(chain, hash)).toBe('confirmed')
    const fee = await feePaid(hash)
    expect(fee).toBe(preview.fee)
    expect(await ethBalance(to)).toBe(amount)
    expect(await ethBalance(wallet.address)).toBe(before - amount - fee)
  })

  it('sends ALT with an ERC-20 transfer, the fee in ETH', async () => {
    const to = stranger()
    const amount = parseUnits('12.5', 18)
    const [ethBefore, altBefore] = await Promise.all([ethBalance(wallet.address), altBalance(wallet.address)])
    const preview = await family.preview(chain, draft({ to, amount, asset: alt() }))
    expect(preview.changes).toEqual([
      { address: wallet.address, asset: alt(), delta: -amount },
      { address: wallet.address, asset: eth, delta: -preview.fee },
      { address: to, asset: alt(), delta: amount },
    ])

    const hash = await family.submit(chain, preview, wallet.request)
    expect(await family.settle(chain, hash)).toBe('confirmed')
    expect(await altBalance(to)).toBe(amount)
    expect(await altBalance(wallet.address)).toBe(altBefore - amount)
    expect(await ethBalance(wallet.address)).toBe(ethBefore - (await feePaid(hash)))
    expect(await ethBalance(to)).toBe(0n)
  })

  it('max sends the whole token balance, then all the ETH the fee leaves', async () => {
    const spender = localWallet(account(8).privateKey, node.rpcUrl)
    const from = spender.address
    const to = stranger()
    const maxAlt = await family.max(chain, { from, asset: alt() })
    expect(maxAlt).toBe(funded)
    const altHash = await family.submit(
      chain,
      await family.preview(chain, { from, to, asset: alt(), amount: maxAlt }),
      spender.request,
    )
    expect(await family.settle(chain, altHash)).toBe('confirmed')
    expect(await altBalance(from)).toBe(0n)
    expect(await altBalance(to)).toBe(funded)

    const before = await ethBalance(from)
    const maxEth = await family.max(chain, { from, asset: eth })
    const preview = await family.preview(chain, { from, to, asset: eth, amount: maxEth })
    const hash = await family.submit(chain, preview, spender.request)
    expect(await family.settle(chain, hash)).toBe('confirmed')
    const left = await ethBalance(from)
    expect(await ethBalance(to)).toBe(maxEth)
    expect(left).toBe(before - maxEth - (await feePaid(hash)))
    // Only the fee cap's headroom over the fee paid stays: less than one transfer's gas at that cap.
    const { gas, maxFeePerGas } = (preview.payload as { transaction: { gas: Hex; maxFeePerGas: Hex } })
      .transaction
    expect(BigInt(gas)).toBe(21_000n)
    expect(left).toBeLessThan(BigInt(gas) * BigInt(maxFeePerGas))
    expect(await family.max(chain, { from, asset: eth })).toBe(0n)
  })

  it('a max send still goes when fees rose since max: its fee cap comes down to what the balance leaves', async () => {
    const spender = localWallet(generatePrivateKey(), node.rpcUrl)
    const funding = parseEther('1')
    const hash = await rpc(node.rpcUrl, 'eth_sendTransaction', [
      { from: deployer.address, to: spender.address, value: toHex(funding) },
    ])
    await reader().waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 50 })
    const maxEth = await family.max(chain, { from: spender.address, asset: eth })
    const { baseFeePerGas } = await reader().getBlock()
    if (!baseFeePerGas) throw new Error('anvil has EIP-1559 base fees')
    await rpc(node.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [toHex((baseFeePerGas * 3n) / 2n)])
    await rpc(node.rpcUrl, 'evm_mine', [])

    const to = stranger()
    const preview = await family.preview(chain, { from: spender.address, to, asset: eth, amount: maxEth })
    const { maxFeePerGas } = (preview.payload as { transaction: { maxFeePerGas: Hex } }).transaction
    expect(BigInt(maxFeePerGas) * 21_000n).toBe(funding - maxEth)
    const sent = await family.submit(chain, preview, spender.request)
    expect(await family.settle(chain, sent)).toBe('confirmed')
    expect(await ethBalance(to)).toBe(maxEth)
  })

  it('refuses a token sent to the token’s own contract, before asking the wallet', async () => {
    const failure = await failureOf(family.preview(chain, draft({ to: token, amount: 1n, asset: alt() })))
    expect(failure).toMatchObject({
      kind: 'invalid',
      message: 'This is the ALT contract itself: tokens sent to it are lost',
    })
  })

  it('says insufficient funds for ETH beyond the balance and ALT beyond the token balance', async () => {
    const to = stranger()
    const eths = await ethBalance(wallet.address)
    const alts = await altBalance(wallet.address)
    const text = 'Insufficient funds for this amount and the network fee'
    for (const attempt of [draft({ to, amount: eths + 1n }), draft({ to, amount: alts + 1n, asset: alt() })])
      expect(await failureOf(family.preview(chain, attempt))).toMatchObject({ kind: 'funds', message: text })
  })

  it('shows the revert reason when the token would refuse the transfer', async () => {
    const zero = '0x0000000000000000000000000000000000000000'
    const failure = await failureOf(family.preview(chain, draft({ to: zero, amount: 1n, asset: alt() })))
    expect(failure.kind).toBe('chain')
    expect(failure.message).toBe(`The transaction would fail on chain: InvalidReceiver(${zero})`)
  })

  it('checks addresses: 40 hex digits, and a valid EIP-55 checksum when in mixed case', async () => {
    const invalid = 'This is not an address on Send Test Chain'
    const checksummed = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    expect(family.checkAddress(checksummed, chain.network)).toBeUndefined()
    expect(family.checkAddress(checksummed.toLowerCase(), chain.network)).toBeUndefined()
    expect(family.checkAddress(`0x${checksummed.slice(2).toUpperCase()}`, chain.network)).toBeUndefined()
    for (const bad of [
      '0x70997970c51812dc3A010C7d01b50e0d17dc79C8', // one letter's case changed: a typo the checksum catches
      checksummed.slice(2),
      `${checksummed}00`,
      '0x70997970C51812dc3A010C7d01b50e0d17dc79Cg',
      'vitalik.eth',
    ])
      expect(family.checkAddress(bad, chain.network)).toBe(invalid)
    const failure = await failureOf(family.preview(chain, draft({ to: checksummed.slice(2), amount: 1n })))
    expect(failure).toMatchObject({ kind: 'invalid', message: invalid })
  })

  it('a wallet that refuses (4001) is declined, and nothing is sent', async () => {
    const to = stranger()
    const preview = await family.preview(chain, draft({ to, amount: parseEther('1') }))
    const nonce = await reader().getTransactionCount({ address: wallet.address })
    const failure = await failureOf(family.submit(chain, preview, refusingWallet))
    expect(failure).toMatchObject({ kind: 'declined', message: 'Signature declined' })
    expect(await reader().getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(nonce)
    expect(await ethBalance(to)).toBe(0n)
  })

  it('submitting the same preview twice sends once and answers the same hash', async () => {
    const to = stranger()
    const amount = parseEther('0.25')
    const preview = await family.preview(chain, draft({ to, amount }))
    const asked = wallet.requests.length
    const [first, second] = await Promise.all([
      family.submit(chain, preview, wallet.request),
      family.submit(chain, preview, wallet.request),
    ])
    const third = await family.submit(chain, preview, wallet.request)
    expect(new Set([first, second, third]).size).toBe(1)
    expect(wallet.requests.length - asked).toBe(1)
    expect(await family.settle(chain, first)).toBe('confirmed')
    expect(await ethBalance(to)).toBe(amount)
  })

  it('a retry after a lost answer cannot send twice: the pinned nonce is already taken', async () => {
    const to = stranger()
    const amount = parseEther('0.5')
    const flaky = localWallet(account(7).privateKey, node.rpcUrl, 'lose the answer')
    const preview = await family.preview(chain, draft({ to, amount }))
    expect((await failureOf(family.submit(chain, preview, flaky.request))).kind).toBe('chain')
    await expect.poll(() => ethBalance(to), { interval: 50 }).toBe(amount)

    const retry = await failureOf(family.submit(chain, preview, flaky.request))
    expect(retry.kind).toBe('chain')
    expect(retry.message).toMatch(/already has a transaction with nonce \d+: this send may have gone through/)
    expect(flaky.requests).toHaveLength(1)
    expect(await ethBalance(to)).toBe(amount)
  })

  it('settles a transaction that reverted on chain as failed', async () => {
    // Sent by the deployer with a fixed gas limit, so the node mines it instead of refusing to estimate.
    const hash = (await rpc(node.rpcUrl, 'eth_sendTransaction', [
      {
        from: deployer.address,
        to: token,
        gas: '0x186a0',
        data: `0xa9059cbb${'0'.repeat(64)}${'1'.padStart(64, '0')}`,
      },
    ])) as string
    expect(await family.settle(chain, hash)).toBe('failed')
  })

  it('falls back to eth_call where the node has no eth_simulateV1, and says so', async () => {
    const proxy = await nodeWithoutSimulate(node.rpcUrl)
    try {
      const plain = chainAt(proxy.url)
      const to = stranger()
      const amount = parseUnits('3', 18)
      const preview = await family.preview(plain, draft({ to, amount, asset: alt() }))
      const payload = preview.payload as { transaction: { gas: Hex; maxFeePerGas: Hex } }
      expect(preview.fee).toBe(BigInt(payload.transaction.gas) * BigInt(payload.transaction.maxFeePerGas))
      expect(preview.changes).toEqual([
        { address: wallet.address, asset: alt(), delta: -amount },
        { address: wallet.address, asset: eth, delta: -preview.fee },
        { address: to, asset: alt(), delta: amount },
      ])
      expect(preview.details).toContainEqual({
        label: 'Simulation',
        value: 'Not available on this network: the changes shown are those the transaction asks for',
      })
      const tooMuch = draft({ to, amount: (await altBalance(wallet.address)) + 1n, asset: alt() })
      expect((await failureOf(family.preview(plain, tooMuch))).kind).toBe('funds')

      const hash = await family.submit(plain, preview, wallet.request)
      expect(await family.settle(plain, hash)).toBe('confirmed')
      expect(await altBalance(to)).toBe(amount)
    } finally {
      await new Promise((resolve) => proxy.server.close(resolve))
    }
  })

  it('a dead RPC is unavailable, and the wallet is never asked', async () => {
    const dead = chainAt(`http://127.0.0.1:${await choosePort('127.0.0.1', 0)}`)
    const text = 'Send Test Chain cannot be reached. Nothing was sent.'
    const to = stranger()
    const preview = await family.preview(chain, draft({ to, amount: 1n }))
    const asked = wallet.requests.length
    for (const attempt of [
      family.max(dead, { from: wallet.address, asset: eth }),
      family.preview(dead, draft({ to, amount: 1n })),
      family.submit(dead, preview, wallet.request),
    ])
      expect(await failureOf(attempt)).toMatchObject({ kind: 'unavailable', message: text })
    expect(wallet.requests.length).toBe(asked)
  })
})
