import * as S from '@airlock/bridge-protocol/Shape'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hash,
  http,
  maxUint256,
  parseEther,
  parseUnits,
  publicActions,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import {
  Accounts,
  Devnet,
  devnetTokens,
  testTokenAbi,
  testTokenBytecode,
  UniswapV2,
  uniswapV2,
} from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type * as Database from '../../Database.ts'
import { messages } from '../../http/errors.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { memoryDatabase } from '../../internal/memoryDatabase.ts'
import { type Answer, calls, configOf, ether, shop } from '../../internal/testApi.ts'
import * as Service from '../../Service.ts'
import * as Prices from '../balances/Prices.ts'
import * as Projects from '../projects/Projects.ts'
import { swapMessages } from './messages.ts'
import { atSlippage, deadlineSeconds, quoteTtlMs } from './routes.ts'
import { sendSwap } from './testing.ts'

const A = 'eip155:31337'
const B = 'eip155:31338'
const { ALT, tUSD } = devnetTokens
const id = (address: string, chain = A) => `${chain}:${address}`
const ETH = id(Contract.nativeToken)
const lp = Accounts.all()[9] as Accounts.Account

let devnet: Devnet.Instance
let db: Database.Database
let api: Service.App
let deadRpc: string
/** SIDE has a deep WETH pool and a shallow tUSD one; DRY has an empty WETH pair; LONE has no pool at all. */
let side: Address
let dry: Address
let lone: Address
let clock = () => Date.now()
const { json } = calls(() => api)

beforeAll(async () => {
  // Free ports of its own, so the suite runs beside `npm start` and the other suites.
  devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
  deadRpc = `http://127.0.0.1:${await closedPort()}`
  ;({ side, dry, lone } = await seedTestTokens(devnet.chains[0]))
  db = await memoryDatabase()
  await Projects.add(db, 'demo', [shop])
  const price = (address: string, value: number, name: string, symbol: string, iconUrl: string | null) => ({
    chainId: A,
    address,
    currency: 'usd' as const,
    price: value,
    name,
    symbol,
    iconUrl,
  })
  await Prices.set(db, [
    price(Prices.native, 3000, 'Ether', 'ETH', null),
    price(ALT.address, 1.25, ALT.name, ALT.symbol, 'http://127.0.0.1:8787/public/getTokenImage/alt'),
  ])
  api = Service.create({ db, config: configOf(chainsOf()), now: () => clock() }).api
})
afterAll(async () => {
  await db?.close()
  await devnet?.stop()
})

function chainsOf(): Config.Chain[] {
  const [a, b] = devnet.chains
  const token = (address: string, name: string, symbol: string, decimals = 18) => ({
    address,
    name,
    symbol,
    decimals,
  })
  const tokens = [
    token(ALT.address, ALT.name, ALT.symbol),
    token(tUSD.address, tUSD.name, tUSD.symbol, 6),
    token(side, 'Airlock Side Token', 'SIDE'),
    token(dry, 'Airlock Dry Token', 'DRY'),
    token(lone, 'Airlock Lone Token', 'LONE'),
  ]
  return [
    { id: A, name: 'A', rpcUrl: a.rpcUrl, nativeCurrency: ether, tokens, swaps: { uniswapV2 } },
    // The same pools, but this deployment does not swap there.
    { id: B, name: 'B', rpcUrl: b.rpcUrl, nativeCurrency: ether, tokens },
    { id: 'eip155:999', name: 'Dead', rpcUrl: deadRpc, nativeCurrency: ether, tokens, swaps: { uniswapV2 } },
  ]
}

/** Account 9 deploys SIDE, DRY and LONE on chain A and gives SIDE its pools, DRY an empty pair. */
async function seedTestTokens(running: Devnet.RunningChain) {
  const client = createWalletClient({
    account: lp.address,
    chain: running.chain,
    transport: http(running.rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions)
  const mined = async (hash: Hash) => {
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`seeding failed in ${hash}`)
    return receipt
  }
  const deploy = async (name: string, symbol: string) => {
    const args = [name, symbol, 18] as const
    const hash = await client.deployContract({ abi: testTokenAbi, bytecode: testTokenBytecode, args })
    return getAddress((await mined(hash)).contractAddress ?? '0x')
  }
  const [sideToken, dryToken, loneToken] = [
    await deploy('Airlock Side Token', 'SIDE'),
    await deploy('Airlock Dry Token', 'DRY'),
    await deploy('Airlock Lone Token', 'LONE'),
  ]
  const token = { abi: testTokenAbi } as const
  const router = { address: uniswapV2.router, abi: UniswapV2.routerAbi } as const
  await mined(
    await client.writeContract({
      ...token,
      address: sideToken,
      functionName: 'mint',
      args: [lp.address, parseEther('1000000')],
    }),
  )
  for (const address of [sideToken, tUSD.address])
    await mined(
      await client.writeContract({
        ...token,
        address,
        functionName: 'approve',
        args: [uniswapV2.router, maxUint256],
      }),
    )
  await mined(
    await client.writeContract({
      address: uniswapV2.factory,
      abi: UniswapV2.factoryAbi,
      functionName: 'createPair',
      args: [dryToken, uniswapV2.weth],
    }),
  )
  // 1 SIDE is $0.30 through WETH; the tUSD pool holds only $30 a side, so a swap of 1,000 SIDE goes through WETH.
  await mined(
    await client.writeContract({
      ...router,
      functionName: 'addLiquidityETH',
      args: [sideToken, parseEther('100000'), 0n, 0n, lp.address, maxUint256],
      value: parseEther('10'),
    }),
  )
  await mined(
    await client.writeContract({
      ...router,
      functionName: 'addLiquidity',
      args: [sideToken, tUSD.address, parseEther('100'), parseUnits('30', 6), 0n, 0n, lp.address, maxUint256],
    }),
  )
  return { side: sideToken, dry: dryToken, lone: loneToken }
}

const query = (params: Record<string, string>) => new URLSearchParams({ projectId: 'demo', ...params })
const get = (path: string, params: Record<string, string>) => json(`${path}?${query(params)}`)
const build = (body: Record<string, unknown>, path = '/v1/convert/build-transaction') =>
  json(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
const refused = (message: string, status = 400): Answer => ({ status, body: { message } })
const reader = () => createPublicClient({ transport: http(devnet.chains[0].rpcUrl), pollingInterval: 50 })
const amountsOut = (amount: bigint, path: Address[]) =>
  reader().readContract({
    address: uniswapV2.router,
    abi: UniswapV2.routerAbi,
    functionName: 'getAmountsOut',
    args: [amount, path],
  })
/** Parsed with the contract, as the modal parses it. */
function parsed<T>(shape: S.Shape<T>, answer: Answer): T {
  expect(answer.status).toBe(200)
  const result = S.parse(shape, answer.body)
  if (!result.ok) throw new Error(result.message)
  return result.value
}

describe('GET /v1/convert/tokens', () => {
  it("lists the chain's native currency and its configured tokens, priced where the price source knows them", async () => {
    const { tokens } = parsed(Contract.swapTokensAnswer, await get('/v1/convert/tokens', { chainId: A }))
    expect(tokens.map((token) => [token.symbol, token.address, token.decimals, token.price])).toEqual([
      ['ETH', ETH, 18, 3000],
      ['ALT', id(ALT.address), 18, 1.25],
      ['tUSD', id(tUSD.address), 6, 0],
      ['SIDE', id(side), 18, 0],
      ['DRY', id(dry), 18, 0],
      ['LONE', id(lone), 18, 0],
    ])
    expect(tokens[1]).toEqual({
      name: 'Airlock Test Token',
      symbol: 'ALT',
      chainId: A,
      address: id(ALT.address),
      value: 0,
      price: 1.25,
      quantity: { decimals: '18', numeric: '0' },
      decimals: 18,
      logoUri: 'http://127.0.0.1:8787/public/getTokenImage/alt',
      eip2612: false,
    })
  })

  it("answers docs/behaviour.md §8's 'Network not supported for Swaps' for a chain without swaps, or unknown", async () => {
    const unsupported = refused(Contract.swapTexts.unsupportedSwaps)
    expect(unsupported.body.message).toBe('Network not supported for Swaps')
    expect(await get('/v1/convert/tokens', { chainId: B })).toEqual(unsupported)
    expect(await get('/v1/convert/tokens', { chainId: 'eip155:1' })).toEqual(unsupported)
    expect(await get('/v1/convert/tokens', { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual(
      unsupported,
    )
    expect(await get('/v1/convert/tokens', { chainId: 'eip155' })).toEqual(
      refused('Invalid CAIP-2 network id'),
    )
    expect(await get('/v1/convert/tokens', { chainId: A, projectId: 'nope' })).toEqual(
      refused(messages.projectNotConfigured, 403),
    )
  })
})

describe('GET /v1/convert/gas-price', () => {
  it("answers the node's gas price, and 20 % and 50 % above it", async () => {
    const node = await reader().getGasPrice()
    const prices = parsed(Contract.gasPriceAnswer, await get('/v1/convert/gas-price', { chainId: A }))
    expect(BigInt(prices.standard)).toBeGreaterThan(0n)
    // anvil lowers its base fee block by block while nothing is mined: at most what it said a moment ago.
    expect(BigInt(prices.standard)).toBeLessThanOrEqual(node)
    expect(prices.fast).toBe(String((BigInt(prices.standard) * 6n) / 5n))
    expect(prices.instant).toBe(String((BigInt(prices.standard) * 3n) / 2n))
  })

  it("answers docs/behaviour.md §8's 'Network not supported for Gas Price', and 502 when the chain's RPC is down", async () => {
    expect(await get('/v1/convert/gas-price', { chainId: B })).toEqual(
      refused('Network not supported for Gas Price'),
    )
    expect(await get('/v1/convert/gas-price', { chainId: 'eip155:1' })).toEqual(
      refused(Contract.swapTexts.unsupportedGasPrice),
    )
    expect(await get('/v1/convert/gas-price', { chainId: 'eip155:999' })).toEqual(
      refused(messages.rpcUnavailable('eip155:999'), 502),
    )
  })
})

describe('GET /v1/convert/quotes', () => {
  const user = id(Accounts.all()[3]?.address ?? '')
  const quote = (params: Record<string, string>) =>
    get('/v1/convert/quotes', { userAddress: user, ...params })

  it('quotes 1 ETH for tUSD through the WETH/tUSD pool: getAmountsOut, 1 % minimum, impact from the reserves', async () => {
    const before = clock()
    const { quotes } = parsed(
      Contract.swapQuotesAnswer,
      await quote({
        from: ETH,
        to: id(tUSD.address),
        amount: String(parseEther('1')),
        gasPrice: '2000000000',
      }),
    )
    const [best] = quotes
    const expected = (await amountsOut(parseEther('1'), [uniswapV2.weth, tUSD.address])).at(-1) ?? 0n
    expect(quotes).toHaveLength(1)
    expect(best).toMatchObject({
      fromAccount: ETH,
      fromAmount: '1000000000000000000',
      fromDecimals: 18,
      toAccount: id(tUSD.address),
      toAmount: String(expected),
      toDecimals: 6,
      route: [ETH, id(tUSD.address)],
      minimumToAmount: String((expected * 99n) / 100n),
    })
    // 1 ETH in a 100 ETH pool moves its price 1 − 100/101 ≈ 0.99 %, the 0.3 % fee not counted.
    expect(best?.priceImpact).toBeCloseTo(0.9872, 3)
    expect(Number(best?.toAmount) / 1e6).toBeGreaterThan(2_950)
    expect(best?.fee).toBe(String(BigInt(best?.gas ?? 0) * 2_000_000_000n))
    expect(BigInt(best?.blockNumber ?? 0)).toBe(await reader().getBlockNumber())
    expect(best?.expiresAt).toBeGreaterThanOrEqual(before + quoteTtlMs)
    expect(best?.id).toMatch(/^uniswap-v2:\d+:/)
  })

  it('takes the route through WETH when it gives more than the direct pool', async () => {
    const amount = parseEther('1000')
    const { quotes } = parsed(
      Contract.swapQuotesAnswer,
      await quote({ from: id(side), to: id(tUSD.address), amount: String(amount) }),
    )
    const [viaWeth, direct] = await Promise.all([
      amountsOut(amount, [side, uniswapV2.weth, tUSD.address]),
      amountsOut(amount, [side, tUSD.address]),
    ])
    expect(viaWeth.at(-1)).toBeGreaterThan(direct.at(-1) ?? 0n)
    expect(quotes[0]?.route).toEqual([id(side), id(uniswapV2.weth), id(tUSD.address)])
    expect(quotes[0]?.toAmount).toBe(String(viaWeth.at(-1)))
    // About $300 of SIDE buys about 296 tUSD after two pools' fees.
    expect(Number(quotes[0]?.toAmount) / 1e6).toBeGreaterThan(290)
  })

  it('answers 400 for a pair no pool can swap: no pool, an empty pair, an amount too small to give anything', async () => {
    expect(await quote({ from: id(lone), to: ETH, amount: '1000' })).toEqual(
      refused(swapMessages.noLiquidity('LONE', 'ETH')),
    )
    expect(await quote({ from: ETH, to: id(dry), amount: '1000' })).toEqual(
      refused('No pool has the liquidity to swap ETH for DRY'),
    )
    expect(await quote({ from: id(ALT.address), to: id(tUSD.address), amount: '1' })).toEqual(
      refused(swapMessages.noLiquidity('ALT', 'tUSD')),
    )
  })

  it('refuses what is not a swap: a zero amount, a token for itself, tokens of two chains, a token the chain does not list', async () => {
    const tusd = id(tUSD.address)
    expect(await quote({ from: ETH, to: tusd, amount: '0' })).toEqual(
      refused('The amount to swap must be more than 0'),
    )
    expect(await quote({ from: tusd, to: tusd.toLowerCase(), amount: '1' })).toEqual(
      refused('A token cannot be swapped for itself'),
    )
    expect(await quote({ from: ETH, to: id(tUSD.address, B), amount: '1' })).toEqual(
      refused('The tokens and the account of a swap must be on one network'),
    )
    expect(await quote({ from: ETH, to: tusd, amount: '1', userAddress: id(lp.address, B) })).toEqual(
      refused(swapMessages.differentChains),
    )
    const stranger = id('0x000000000000000000000000000000000000bEEF')
    expect(await quote({ from: ETH, to: stranger, amount: '1' })).toEqual(
      refused(`Not a token this network swaps: ${stranger}`),
    )
    expect(
      await quote({
        from: id(tUSD.address, B),
        to: id(ALT.address, B),
        amount: '1',
        userAddress: id(lp.address, B),
      }),
    ).toEqual(refused('Network not supported for Swaps'))
  })

  it('refuses invalid input by its field: addresses, amounts, a bad checksum, no project', async () => {
    const tusd = id(tUSD.address)
    // 0xDc64…: its D in lower case breaks the EIP-55 checksum of a mixed-case address.
    const wrongChecksum = id(`0xd${tUSD.address.slice(3)}`)
    expect(await quote({ from: ETH, to: tusd, amount: '1.5' })).toMatchObject(
      refused('amount: expected a string like /^\\d+$/'),
    )
    expect((await quote({ from: ETH, to: 'eip155:31337:0x12', amount: '1' })).body.message).toMatch(
      /^to: expected/,
    )
    expect((await quote({ from: 'solana:x:y', to: tusd, amount: '1' })).body.message).toMatch(
      /^from: expected/,
    )
    expect(await quote({ from: ETH, to: tusd, amount: '1', userAddress: wrongChecksum })).toEqual(
      refused('Invalid EVM address'),
    )
    expect(await quote({ from: ETH, to: tusd, amount: '1', projectId: 'nope' })).toEqual(
      refused('Project id not configured', 403),
    )
  })

  it("answers 502 when the chain's RPC is down", async () => {
    const dead = (address: string) => id(address, 'eip155:999')
    expect(
      await quote({
        from: dead(Contract.nativeToken),
        to: dead(ALT.address),
        amount: '1',
        userAddress: dead(lp.address),
      }),
    ).toEqual(refused('The RPC of eip155:999 is unavailable', 502))
  })
})

describe('GET /v1/convert/allowance and /v1/convert/build-approve', () => {
  const owner = Accounts.all()[4] as Accounts.Account

  it('answers what the router may spend: 2^256 − 1 for the native currency, the ERC-20 allowance otherwise', async () => {
    const allowance = (token: string) =>
      get('/v1/convert/allowance', { tokenAddress: token, userAddress: id(owner.address) })
    expect(parsed(Contract.swapAllowanceAnswer, await allowance(ETH))).toEqual({
      allowance: String(maxUint256),
    })
    expect(parsed(Contract.swapAllowanceAnswer, await allowance(id(ALT.address)))).toEqual({ allowance: '0' })
    const wallet = createWalletClient({
      account: privateKeyToAccount(owner.privateKey),
      chain: devnet.chains[0].chain,
      transport: http(devnet.chains[0].rpcUrl),
    })
    const hash = await wallet.writeContract({
      address: ALT.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [uniswapV2.router, 1234n],
    })
    await reader().waitForTransactionReceipt({ hash })
    expect(parsed(Contract.swapAllowanceAnswer, await allowance(id(ALT.address)))).toEqual({
      allowance: '1234',
    })
  })

  it('refuses an allowance of an unlisted token, across chains, on a chain without swaps; 502 on a dead RPC', async () => {
    const allowance = (token: string, user = id(owner.address)) =>
      get('/v1/convert/allowance', { tokenAddress: token, userAddress: user })
    expect(await allowance(id(uniswapV2.weth))).toEqual(
      refused(swapMessages.unknownToken(id(uniswapV2.weth))),
    )
    expect(await allowance(id(ALT.address), id(owner.address, B))).toEqual(
      refused(swapMessages.differentChains),
    )
    expect(await allowance(id(ALT.address, B), id(owner.address, B))).toEqual(
      refused(Contract.swapTexts.unsupportedSwaps),
    )
    const dead = (address: string) => id(address, 'eip155:999')
    expect(await allowance(dead(ALT.address), dead(owner.address))).toEqual(
      refused(messages.rpcUnavailable('eip155:999'), 502),
    )
  })

  it('builds the approval of the router for an amount, or unlimited when the amount is left out', async () => {
    const approve = (amount?: string) =>
      get('/v1/convert/build-approve', {
        userAddress: id(owner.address),
        from: id(ALT.address),
        to: ETH,
        ...(amount === undefined ? {} : { amount }),
      })
    const { tx } = parsed(Contract.buildApproveAnswer, await approve('5000'))
    expect(tx).toMatchObject({ from: owner.address, to: ALT.address, value: '0' })
    // approve(router, 5000): the selector, the router, the amount.
    expect(tx.data).toBe(
      `0x095ea7b3${uniswapV2.router.slice(2).toLowerCase().padStart(64, '0')}${(5000).toString(16).padStart(64, '0')}`,
    )
    expect(BigInt(tx.eip155.gas ?? 0)).toBeGreaterThan(21_000n)
    expect(BigInt(tx.eip155.gasPrice)).toBeGreaterThan(0n)
    const unlimited = parsed(Contract.buildApproveAnswer, await approve())
    expect(unlimited.tx.data.endsWith('f'.repeat(64))).toBe(true)
  })

  it('refuses an approval of the native currency, of nothing, or for a pair that is not a swap', async () => {
    const approve = (params: Record<string, string>) =>
      get('/v1/convert/build-approve', { userAddress: id(owner.address), ...params })
    expect(await approve({ from: ETH, to: id(ALT.address) })).toEqual(
      refused("ETH needs no approval: it is the network's own currency"),
    )
    expect(await approve({ from: id(ALT.address), to: ETH, amount: '0' })).toEqual(
      refused(swapMessages.zeroAmount),
    )
    expect(await approve({ from: id(ALT.address), to: id(ALT.address) })).toEqual(
      refused(swapMessages.sameToken),
    )
    expect(await approve({ from: id(ALT.address, B), to: ETH })).toEqual(
      refused(swapMessages.differentChains),
    )
  })
})

describe('POST /v1/convert/build-transaction', () => {
  const user = Accounts.all()[5] as Accounts.Account
  const body = (fields: Record<string, unknown>) => ({
    projectId: 'demo',
    userAddress: id(user.address),
    ...fields,
  })

  it('builds swapExactETHForTokens with the ETH as value, 1 % under the quote, a 20-minute deadline and its gas', async () => {
    const before = Math.floor(Date.now() / 1000)
    const answer = parsed(
      Contract.buildSwapAnswer,
      await build(body({ from: ETH, to: id(ALT.address), amount: String(parseEther('0.5')) })),
    )
    expect(answer.tx).toMatchObject({
      from: user.address,
      to: uniswapV2.router,
      value: String(parseEther('0.5')),
    })
    expect(answer.tx.data.slice(0, 10)).toBe('0x7ff36ab5')
    expect(answer.minimumToAmount).toBe(String(atSlippage(BigInt(answer.toAmount), '1')))
    expect(answer.deadline).toBeGreaterThanOrEqual(before + deadlineSeconds)
    expect(answer.deadline).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + deadlineSeconds)
    expect(BigInt(answer.tx.eip155.gas ?? 0)).toBeGreaterThan(60_000n)
  })

  it('takes the slippage asked for, and the project in the body or the query', async () => {
    const fields = { from: id(tUSD.address), to: ETH, amount: '1000000', disableEstimate: true }
    const answer = parsed(
      Contract.buildSwapAnswer,
      await build(body({ ...fields, eip155: { slippage: '0.25' } })),
    )
    expect(answer.minimumToAmount).toBe(String((BigInt(answer.toAmount) * 9975n) / 10_000n))
    // swapExactTokensForETH, and no gas: the client will estimate once its approval is mined.
    expect(answer.tx.data.slice(0, 10)).toBe('0x18cbafe5')
    expect(answer.tx.eip155.gas).toBeUndefined()
    const { projectId: _, ...withoutProject } = body(fields)
    expect((await build(withoutProject, '/v1/convert/build-transaction?projectId=demo')).status).toBe(200)
    expect(await build(withoutProject)).toEqual(refused('projectId: expected a string of 1..64 characters'))
    expect(await build(body({ ...fields, projectId: 'nope' }))).toEqual(
      refused('Project id not configured', 403),
    )
    expect((await build(body({ ...fields, eip155: { slippage: '150' } }))).status).toBe(400)
  })

  it('answers why the swap would fail: no approval yet, no ETH to pay, a deadline already past', async () => {
    const tusd = id(tUSD.address)
    expect(await build(body({ from: tusd, to: id(ALT.address), amount: '1000000' }))).toEqual(
      refused('The swap would fail: TransferHelper: TRANSFER_FROM_FAILED'),
    )
    const broke = privateKeyToAccount(generatePrivateKey()).address
    const oneEther = String(parseEther('1'))
    expect(await build(body({ from: ETH, to: tusd, amount: oneEther, userAddress: id(broke) }))).toEqual(
      refused(swapMessages.wouldFail('swap', 'the account has not enough ETH for the amount and the gas')),
    )
    clock = () => Date.now() - 2 * deadlineSeconds * 1000
    try {
      expect(await build(body({ from: ETH, to: tusd, amount: oneEther }))).toEqual(
        refused('The swap would fail: UniswapV2Router: EXPIRED'),
      )
    } finally {
      clock = () => Date.now()
    }
  })

  it('refuses bad bodies: not JSON, a zero amount, a token for itself, an unlisted token, a chain without swaps', async () => {
    const post = (text: string) =>
      json('/v1/convert/build-transaction', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: text,
      })
    expect(await post('{')).toEqual(refused(messages.invalidJson))
    expect(await build(body({ from: ETH, to: id(ALT.address), amount: '0' }))).toEqual(
      refused(swapMessages.zeroAmount),
    )
    expect(await build(body({ from: ETH, to: ETH, amount: '1' }))).toEqual(refused(swapMessages.sameToken))
    expect(await build(body({ from: ETH, to: id(lone), amount: '1' }))).toEqual(
      refused(swapMessages.noLiquidity('ETH', 'LONE')),
    )
    expect(await build(body({ from: ETH, to: id(uniswapV2.weth), amount: '1' }))).toEqual(
      refused(swapMessages.unknownToken(id(uniswapV2.weth))),
    )
    const onB = {
      from: id(Contract.nativeToken, B),
      to: id(ALT.address, B),
      amount: '1',
      userAddress: id(user.address, B),
    }
    expect(await build(body(onB))).toEqual(refused(Contract.swapTexts.unsupportedSwaps))
    expect((await build(body({ to: id(ALT.address), amount: '1' }))).body.message).toMatch(/^from: expected/)
  })
})

describe('a swap the API built, signed with a test key and sent to anvil', () => {
  const trader = Accounts.all()[7] as Accounts.Account
  const balanceOf = (token: Address) =>
    reader().readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [trader.address],
    })
  /** Sends an answer's transaction as a wallet would, and what it cost in gas. */
  const send = (tx: Contract.SwapTransaction) => sendSwap(devnet.chains[0], trader, tx)
  const userAddress = () => id(trader.address)

  it('tUSD for ETH: quote, approve, swap; the ETH arrives, at least the minimum, and the tUSD leaves', async () => {
    const amount = parseUnits('1500', 6)
    const params = { userAddress: userAddress(), from: id(tUSD.address), to: ETH }
    const [quote] = parsed(
      Contract.swapQuotesAnswer,
      await get('/v1/convert/quotes', { ...params, amount: String(amount) }),
    ).quotes
    const approval = parsed(
      Contract.buildApproveAnswer,
      await get('/v1/convert/build-approve', { ...params, amount: String(amount) }),
    )
    const [ether, usd] = [
      await reader().getBalance({ address: trader.address }),
      await balanceOf(tUSD.address),
    ]
    const approved = await send(approval.tx)
    expect(
      parsed(
        Contract.swapAllowanceAnswer,
        await get('/v1/convert/allowance', { tokenAddress: params.from, userAddress: params.userAddress }),
      ),
    ).toEqual({
      allowance: String(amount),
    })
    const swap = parsed(
      Contract.buildSwapAnswer,
      await build({ ...params, projectId: 'demo', amount: String(amount) }),
    )
    expect(swap.toAmount).toBe(quote?.toAmount)
    const swapped = await send(swap.tx)
    expect(swapped.gasUsed).toBeLessThanOrEqual(BigInt(quote?.gas ?? 0))
    const received =
      (await reader().getBalance({ address: trader.address })) - ether + approved.cost + swapped.cost
    expect(received).toBe(BigInt(swap.toAmount))
    expect(received).toBeGreaterThanOrEqual(BigInt(quote?.minimumToAmount ?? 0))
    // $1,500 is half an ether, less the fee and the impact.
    expect(received).toBeGreaterThan(parseEther('0.49'))
    expect(await balanceOf(tUSD.address)).toBe(usd - amount)
  })

  it('ETH for ALT, and SIDE for tUSD through WETH: each moves the balances the build said', async () => {
    const alt = await balanceOf(ALT.address)
    const ethSwap = parsed(
      Contract.buildSwapAnswer,
      await build({
        projectId: 'demo',
        userAddress: userAddress(),
        from: ETH,
        to: id(ALT.address),
        amount: String(parseEther('2')),
      }),
    )
    const [quote] = parsed(
      Contract.swapQuotesAnswer,
      await get('/v1/convert/quotes', {
        userAddress: userAddress(),
        from: ETH,
        to: id(ALT.address),
        amount: String(parseEther('2')),
      }),
    ).quotes
    expect((await send(ethSwap.tx)).gasUsed).toBeLessThanOrEqual(BigInt(quote?.gas ?? 0))
    expect((await balanceOf(ALT.address)) - alt).toBe(BigInt(ethSwap.toAmount))
    // 2 ETH is $6,000: about 4,800 ALT at $1.25, less 0.3 % and the 2 % that 2 ETH moves a 100 ETH pool.
    expect(BigInt(ethSwap.toAmount)).toBeGreaterThan(parseEther('4650'))

    // SIDE comes from the pools' owner; the trader swaps it through two pools.
    const funder = createWalletClient({
      account: lp.address,
      chain: devnet.chains[0].chain,
      transport: http(devnet.chains[0].rpcUrl),
    })
    await reader().waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: side,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [trader.address, parseEther('500')],
      }),
    })
    const params = { userAddress: userAddress(), from: id(side), to: id(tUSD.address) }
    await send(parsed(Contract.buildApproveAnswer, await get('/v1/convert/build-approve', params)).tx)
    const usd = await balanceOf(tUSD.address)
    const amount = String(parseEther('500'))
    const [sideQuote] = parsed(
      Contract.swapQuotesAnswer,
      await get('/v1/convert/quotes', { ...params, amount }),
    ).quotes
    expect(sideQuote?.route).toHaveLength(3)
    const sideSwap = parsed(Contract.buildSwapAnswer, await build({ ...params, projectId: 'demo', amount }))
    expect(sideSwap.tx.data.slice(0, 10)).toBe('0x38ed1739')
    const { gasUsed } = await send(sideSwap.tx)
    expect(gasUsed).toBeLessThanOrEqual(BigInt(sideQuote?.gas ?? 0))
    expect((await balanceOf(tUSD.address)) - usd).toBe(BigInt(sideSwap.toAmount))
    expect(await balanceOf(side)).toBe(0n)
  })
})

describe('atSlippage', () => {
  it('takes a percentage with up to 4 decimals exactly, rounding down', () => {
    expect(atSlippage(1000n, '1')).toBe(990n)
    expect(atSlippage(1000n, '0')).toBe(1000n)
    expect(atSlippage(1_000_000n, '0.0001')).toBe(999_999n)
    expect(atSlippage(999n, '0.5')).toBe(994n)
    expect(atSlippage(1000n, '99.9999')).toBe(0n)
  })
})
