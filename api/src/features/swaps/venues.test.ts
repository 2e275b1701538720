/**
 * Swaps across venues on the devnet's Uniswap v2 and v3: every venue quoted at one block, the best net of gas
 * first, each figure checked against the venue's own quoter (Router02's getAmountsOut/In, QuoterV2), and the
 * swaps the API builds sent to anvil: exact input and exact output, the native currency in and out.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import {
  type Address,
  createPublicClient,
  createTestClient,
  erc20Abi,
  http,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import { Accounts, Devnet, devnetTokens, uniswapV2, uniswapV3 } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import * as Database from '../../Database.ts'
import { closedPort } from '../../internal/closedPort.ts'
import { type Answer, calls, configOf, ether, shop } from '../../internal/testApi.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import { aboveSlippage } from './routes.ts'
import { sendSwap } from './testing.ts'

const A = 'eip155:31337'
const { ALT, tUSD } = devnetTokens
const id = (address: string, chain = A) => `${chain}:${address}`
const ETH = id(Contract.nativeToken)
const trader = Accounts.all()[8] as Accounts.Account
const weth = uniswapV2.weth

let devnet: Devnet.Instance
let db: Database.Database
let api: Service.App
const { json } = calls(() => api)

const tokens = [
  { address: ALT.address, name: ALT.name, symbol: ALT.symbol, decimals: 18 },
  { address: tUSD.address, name: tUSD.name, symbol: tUSD.symbol, decimals: 6 },
]

beforeAll(async () => {
  devnet = await Devnet.start({ ports: [await closedPort(), await closedPort()] })
  db = await Database.open({ url: undefined, dataDir: 'memory://' })
  await Projects.add(db, 'demo', [shop])
  const chains: Config.Chain[] = [
    {
      id: A,
      name: 'A',
      rpcUrl: devnet.chains[0].rpcUrl,
      nativeCurrency: ether,
      tokens,
      swaps: { uniswapV2, uniswapV3: { ...uniswapV3, weth } },
    },
    // Ethereum, listed without a swaps block: Uniswap's own deployments serve it (no RPC is asked here).
    { id: 'eip155:1', name: 'Ethereum', rpcUrl: 'http://127.0.0.1:1', nativeCurrency: ether, tokens: [] },
    // Ethereum's id again is not allowed; BNB Chain has no built-in venue.
    { id: 'eip155:56', name: 'BNB Chain', rpcUrl: 'http://127.0.0.1:1', nativeCurrency: ether, tokens: [] },
    {
      id: 'eip155:10',
      name: 'Optimism',
      rpcUrl: 'http://127.0.0.1:1',
      nativeCurrency: ether,
      tokens: [],
      swaps: {},
    },
  ]
  api = Service.create({ db, config: configOf(chains) }).api
})
afterAll(async () => {
  await db?.close()
  await devnet?.stop()
})

const query = (params: Record<string, string>) => new URLSearchParams({ projectId: 'demo', ...params })
const get = (path: string, params: Record<string, string>) => json(`${path}?${query(params)}`)
const build = (body: Record<string, unknown>) =>
  json('/v1/convert/build-transaction', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ projectId: 'demo', userAddress: id(trader.address), ...body }),
  })
const reader = () => createPublicClient({ transport: http(devnet.chains[0].rpcUrl), pollingInterval: 50 })
const testClient = () => createTestClient({ mode: 'anvil', transport: http(devnet.chains[0].rpcUrl) })
function parsed<T>(shape: S.Shape<T>, answer: Answer): T {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  const result = S.parse(shape, answer.body)
  if (!result.ok) throw new Error(result.message)
  return result.value
}
const quotes = async (params: Record<string, string>) =>
  parsed(
    Contract.swapQuotesAnswer,
    await get('/v1/convert/quotes', { userAddress: id(trader.address), ...params }),
  ).quotes

const quoterAbi = parseAbi([
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
])
const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)',
])

/** QuoterV2's own answer at `blockNumber` for an exact input or output along one pool. */
async function quoterV2(
  type: 'exactInput' | 'exactOutput',
  tokenIn: Address,
  tokenOut: Address,
  fee: number,
  amount: bigint,
  blockNumber: bigint,
) {
  const { result } = await reader().simulateContract({
    address: uniswapV3.quoter,
    abi: quoterAbi,
    functionName: type === 'exactInput' ? 'quoteExactInputSingle' : 'quoteExactOutputSingle',
    args: [
      {
        tokenIn,
        tokenOut,
        ...(type === 'exactInput' ? { amountIn: amount } : { amount }),
        fee,
        sqrtPriceLimitX96: 0n,
      },
    ] as never,
    blockNumber,
  })
  return (result as readonly bigint[])[0] as bigint
}

/** Router02's own answer at `blockNumber`. */
async function router02(
  type: 'exactInput' | 'exactOutput',
  path: Address[],
  amount: bigint,
  blockNumber: bigint,
) {
  const amounts = await reader().readContract({
    address: uniswapV2.router,
    abi: routerAbi,
    functionName: type === 'exactInput' ? 'getAmountsOut' : 'getAmountsIn',
    args: [amount, path],
    blockNumber,
  })
  return type === 'exactInput' ? (amounts.at(-1) as bigint) : (amounts[0] as bigint)
}

const balanceOf = (token: Address) =>
  reader().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [trader.address] })
/** Sends an answer's transaction as a wallet would; what it cost in wei and gas. */
const send = (tx: Contract.SwapTransaction) => sendSwap(devnet.chains[0], trader, tx)

describe('GET /v1/convert/quotes across venues', () => {
  it('ETH → tUSD: both venues at one block, v3’s 0.05 % pool first, each figure its own quoter’s', async () => {
    const amount = parseEther('1')
    const [best, next, ...rest] = await quotes({ from: ETH, to: id(tUSD.address), amount: String(amount) })
    expect(rest).toEqual([])
    expect(best?.venue).toEqual({ id: 'uniswap-v3', name: 'Uniswap v3' })
    expect(best?.spender).toBe(uniswapV3.router)
    expect(best?.fees).toEqual([500])
    expect(best?.route).toEqual([ETH, id(tUSD.address)])
    expect(next?.venue).toEqual({ id: 'uniswap-v2', name: 'Uniswap v2' })
    expect(next?.spender).toBe(uniswapV2.router)
    expect(next?.blockNumber).toBe(best?.blockNumber)
    const block = BigInt(best?.blockNumber ?? 0)
    expect(BigInt(best?.toAmount ?? 0)).toBe(
      await quoterV2('exactInput', weth, tUSD.address, 500, amount, block),
    )
    expect(BigInt(next?.toAmount ?? 0)).toBe(
      await router02('exactInput', [weth, tUSD.address], amount, block),
    )
    expect(BigInt(best?.toAmount ?? 0)).toBeGreaterThan(BigInt(next?.toAmount ?? 0))
    // 1 % of $300,000 moves the pool ~1 %: the impact is the move, not the fee.
    expect(best?.priceImpact).toBeGreaterThan(0.8)
    expect(best?.priceImpact).toBeLessThan(1.2)
  })

  it('ALT → ETH: v2 first, since v3 has ALT only at 1 %', async () => {
    const amount = parseEther('100')
    const [best, next] = await quotes({ from: id(ALT.address), to: ETH, amount: String(amount) })
    expect(best?.venue.id).toBe('uniswap-v2')
    expect(next?.venue.id).toBe('uniswap-v3')
    expect(next?.fees).toEqual([10000])
    const block = BigInt(best?.blockNumber ?? 0)
    expect(BigInt(best?.toAmount ?? 0)).toBe(await router02('exactInput', [ALT.address, weth], amount, block))
    expect(BigInt(next?.toAmount ?? 0)).toBe(
      await quoterV2('exactInput', ALT.address, weth, 10000, amount, block),
    )
  })

  it('an exact output: what 300 tUSD take on each venue, with the most at 1 % slippage', async () => {
    const amount = parseUnits('300', 6)
    const [best, next] = await quotes({
      from: ETH,
      to: id(tUSD.address),
      amount: String(amount),
      type: 'exactOutput',
    })
    expect(best?.type).toBe('exactOutput')
    expect(best?.venue.id).toBe('uniswap-v3')
    expect(best?.toAmount).toBe(String(amount))
    expect(best?.minimumToAmount).toBe(String(amount))
    const block = BigInt(best?.blockNumber ?? 0)
    const fromAmount = await quoterV2('exactOutput', weth, tUSD.address, 500, amount, block)
    expect(best?.fromAmount).toBe(String(fromAmount))
    expect(best?.maximumFromAmount).toBe(String(aboveSlippage(fromAmount, '1')))
    expect(BigInt(next?.fromAmount ?? 0)).toBe(
      await router02('exactOutput', [weth, tUSD.address], amount, block),
    )
  })

  it('names one venue when asked, and refuses one the chain does not have', async () => {
    const params = { from: ETH, to: id(tUSD.address), amount: String(parseEther('1')) }
    expect((await quotes({ ...params, venue: 'uniswap-v2' })).map((quote) => quote.venue.id)).toEqual([
      'uniswap-v2',
    ])
    expect(
      await get('/v1/convert/quotes', { ...params, userAddress: id(trader.address), venue: 'sushi' }),
    ).toEqual({
      status: 400,
      body: { message: 'Not a venue this network swaps on: sushi' },
    })
  })

  it('serves a mainnet Uniswap deploys on with no swaps block, and refuses one it does not (or `swaps: {}`) with the product’s text (docs/behaviour.md §8)', async () => {
    expect((await get('/v1/convert/tokens', { chainId: 'eip155:1' })).status).toBe(200)
    for (const chainId of ['eip155:56', 'eip155:10'])
      expect(await get('/v1/convert/tokens', { chainId })).toEqual({
        status: 400,
        body: { message: Contract.swapTexts.unsupportedSwaps },
      })
  })
})

describe('swaps the API built through each venue, sent to anvil', () => {
  it('ETH → tUSD, exact input, through SwapRouter02: the tUSD QuoterV2 said arrives, within the quote’s gas', async () => {
    const amount = parseEther('0.5')
    const params = { from: ETH, to: id(tUSD.address), amount: String(amount) }
    const [quote] = await quotes(params)
    const swap = parsed(Contract.buildSwapAnswer, await build(params))
    expect(swap.venue.id).toBe('uniswap-v3')
    expect(swap.tx.to).toBe(uniswapV3.router)
    expect(swap.toAmount).toBe(quote?.toAmount)
    const before = await balanceOf(tUSD.address)
    const sent = await send(swap.tx)
    expect(sent.gasUsed).toBeLessThanOrEqual(BigInt(quote?.gas ?? 0))
    expect((await balanceOf(tUSD.address)) - before).toBe(BigInt(swap.toAmount))
  })

  it('ETH → 250 tUSD, exact output: exactly 250 arrive, and only what the pool took of the ETH leaves', async () => {
    const amount = parseUnits('250', 6)
    // Through v3 by name: the swap above moved its pool, so v2 may be the better one now.
    const params = { from: ETH, to: id(tUSD.address), amount: String(amount), type: 'exactOutput' }
    const swap = parsed(Contract.buildSwapAnswer, await build({ ...params, venue: 'uniswap-v3' }))
    expect(swap.tx.to).toBe(uniswapV3.router)
    expect(BigInt(swap.tx.value)).toBe(BigInt(swap.maximumFromAmount))
    const [usd, eth] = [await balanceOf(tUSD.address), await reader().getBalance({ address: trader.address })]
    // Mined seconds after the block the estimate saw, as a visitor's swap is: the pool the swap above moved
    // writes its oracle's observation anew, which the estimate alone did not cover.
    const latest = await reader().getBlock()
    await testClient().setNextBlockTimestamp({ timestamp: latest.timestamp + 5n })
    const sent = await send(swap.tx)
    expect((await balanceOf(tUSD.address)) - usd).toBe(amount)
    // The rest of the 1 % margin came back (refundETH).
    expect(eth - (await reader().getBalance({ address: trader.address })) - sent.cost).toBe(
      BigInt(swap.fromAmount),
    )
  })

  it('tUSD → ETH through v3 after approving SwapRouter02: the WETH is unwrapped to the trader', async () => {
    const amount = parseUnits('600', 6)
    const params = { from: id(tUSD.address), to: ETH, amount: String(amount) }
    const [quote] = await quotes(params)
    expect(quote?.venue.id).toBe('uniswap-v3')
    const approval = parsed(
      Contract.buildApproveAnswer,
      await get('/v1/convert/build-approve', {
        ...params,
        userAddress: id(trader.address),
        venue: 'uniswap-v3',
      }),
    )
    await send(approval.tx)
    const allowance = await get('/v1/convert/allowance', {
      tokenAddress: params.from,
      userAddress: id(trader.address),
      venue: 'uniswap-v3',
    })
    expect(parsed(Contract.swapAllowanceAnswer, allowance).allowance).toBe(String(amount))
    const swap = parsed(Contract.buildSwapAnswer, await build({ ...params, venue: 'uniswap-v3' }))
    const eth = await reader().getBalance({ address: trader.address })
    const sent = await send(swap.tx)
    expect(sent.gasUsed).toBeLessThanOrEqual(BigInt(quote?.gas ?? 0))
    expect((await reader().getBalance({ address: trader.address })) - eth + sent.cost).toBe(
      BigInt(swap.toAmount),
    )
  })

  it('ALT → 0.01 ETH, exact output through Router02: exactly that ETH arrives, the ALT the router said leaves', async () => {
    const amount = parseEther('0.01')
    const params = { from: id(ALT.address), to: ETH, amount: String(amount), type: 'exactOutput' }
    const [quote] = await quotes({ ...params, venue: 'uniswap-v2' })
    // An exact output's approval is of the most it may take.
    const approval = parsed(
      Contract.buildApproveAnswer,
      await get('/v1/convert/build-approve', {
        from: params.from,
        to: params.to,
        amount: quote?.maximumFromAmount ?? '0',
        userAddress: id(trader.address),
        venue: 'uniswap-v2',
      }),
    )
    await send(approval.tx)
    const swap = parsed(Contract.buildSwapAnswer, await build({ ...params, venue: 'uniswap-v2' }))
    expect(swap.tx.to).toBe(uniswapV2.router)
    const [alt, eth] = [await balanceOf(ALT.address), await reader().getBalance({ address: trader.address })]
    const sent = await send(swap.tx)
    expect((await reader().getBalance({ address: trader.address })) - eth + sent.cost).toBe(amount)
    expect(alt - (await balanceOf(ALT.address))).toBe(BigInt(swap.fromAmount))
  })
})
