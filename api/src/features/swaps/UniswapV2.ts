/**
 * The Uniswap v2 venue: a deployment's Router02, its factory and WETH, read on the chain's own RPC. A quote
 * asks the router (`getAmountsOut` for an exact input, `getAmountsIn` for an exact output) for the direct
 * pool and for the route through WETH, at the request's block, with each hop's pair from the factory in the
 * same call; the pairs' reserves then give each route's price impact.
 */
import { type Address, encodeFunctionData, isAddressEqual, parseAbi, zeroAddress } from 'viem'
import type { Chain } from '../../Config.ts'
import { clientOf } from '../balances/Evm.ts'
import type { Asset, Quote, SwapAdapter } from './Adapter.ts'
import { readOn } from './Reads.ts'

const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])
const factoryAbi = parseAbi(['function getPair(address tokenA, address tokenB) view returns (address pair)'])
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])

/** Every v2 pool takes 0.3 %, in the hundredths of a basis point quotes name fees in. */
const poolFee = 3000

/**
 * Gas of a swap through one pool, and of each pool more: a quote cannot estimate the visitor's swap (it may
 * lack the allowance yet), so it says these. Measured on the devnet's Router02: 135,000 (ETH for a token)
 * to 145,000 (a token for ETH) through one pool, 172,000 through two; rounded up for a first-time holder,
 * whose fresh balance slot costs 20,000 more. The route tests check real swaps stay under them.
 */
const gasOfOnePool = 170_000n
const gasPerPoolMore = 70_000n

/** A deployment of Router02 with the factory and the WETH it was deployed with. */
export type Contracts = { router: string; factory: string; weth: string }

/**
 * A Uniswap v2 venue on `chain`, read on its RPC.
 * @example UniswapV2.create(chain, { router, factory, weth })
 */
export function create(chain: Chain, contracts: Contracts): SwapAdapter {
  const router = contracts.router as Address
  const factory = contracts.factory as Address
  const weth = contracts.weth as Address
  const client = clientOf(chain)
  const read = readOn(chain)
  // The router swaps WETH; the native currency is wrapped on the way in and unwrapped on the way out.
  const poolToken = (asset: Asset): Address => (asset.native ? weth : asset.address)

  return {
    id: 'uniswap-v2',
    name: 'Uniswap v2',
    spender: router,

    async quote(request) {
      const [from, to] = [poolToken(request.from), poolToken(request.to)]
      // ETH for WETH is a wrap, not a swap: no pool does it.
      if (isAddressEqual(from, to)) return []
      const paths: Address[][] = [[from, to]]
      if (!isAddressEqual(from, weth) && !isAddressEqual(to, weth)) paths.push([from, weth, to])
      const hops = paths.flatMap(hopsOf)
      const exactIn = request.type === 'exactInput'
      const answers = await read(() =>
        client.multicall({
          deployless: true,
          allowFailure: true,
          blockNumber: request.blockNumber,
          // A path without a pool, or with too little in one, reverts: that route is out.
          contracts: [
            ...paths.map((path) => ({
              address: router,
              abi: routerAbi,
              functionName: exactIn ? ('getAmountsOut' as const) : ('getAmountsIn' as const),
              args: [request.amount, path] as const,
            })),
            ...hops.map(([a, b]) => ({
              address: factory,
              abi: factoryAbi,
              functionName: 'getPair' as const,
              args: [a, b] as const,
            })),
          ],
        }),
      )
      const pairOf = new Map(
        hops.map(([a, b], index) => {
          const answer = answers[paths.length + index]
          const pair =
            answer?.status === 'success' && typeof answer.result === 'string' ? answer.result : zeroAddress
          return [`${a}:${b}`, pair as Address]
        }),
      )
      const routes = paths.flatMap((path, index) => {
        const answer = answers[index]
        const amounts = answer?.status === 'success' && Array.isArray(answer.result) ? answer.result : []
        const [fromAmount, toAmount] = [amounts[0] ?? 0n, amounts.at(-1) ?? 0n]
        const pairs = hopsOf(path).map(([a, b]) => pairOf.get(`${a}:${b}`) ?? zeroAddress)
        if (fromAmount === 0n || toAmount === 0n || pairs.some((pair) => isAddressEqual(pair, zeroAddress)))
          return []
        return [{ path, pairs, fromAmount: fromAmount as bigint, toAmount: toAmount as bigint }]
      })
      if (routes.length === 0) return []
      const reserves = await read(() =>
        client.multicall({
          deployless: true,
          allowFailure: false,
          blockNumber: request.blockNumber,
          contracts: routes.flatMap((route) =>
            route.pairs.map((pair) => ({
              address: pair,
              abi: pairAbi,
              functionName: 'getReserves' as const,
            })),
          ),
        }),
      )
      let next = 0
      return routes.map(({ path, fromAmount, toAmount }): Quote => {
        const along = hopsOf(path).map(([a, b]) => {
          const [reserve0, reserve1] = reserves[next++] ?? [0n, 0n]
          // A pair orders its tokens by address: token0 is the lower one.
          return BigInt(a) < BigInt(b) ? { in: reserve0, out: reserve1 } : { in: reserve1, out: reserve0 }
        })
        return {
          venue: 'uniswap-v2',
          from: request.from,
          to: request.to,
          type: request.type,
          blockNumber: request.blockNumber,
          fromAmount,
          toAmount,
          route: path.map((token, index) =>
            index === 0 ? request.from.address : index === path.length - 1 ? request.to.address : token,
          ),
          fees: along.map(() => poolFee),
          priceImpact: priceImpact(fromAmount, toAmount, along),
          gas: gasOfOnePool + gasPerPoolMore * BigInt(path.length - 2),
        }
      })
    },

    async buildSwap({ quote, limit, recipient, deadline }) {
      const path = quote.route.map((token, index) =>
        index === 0 ? poolToken(quote.from) : index === quote.route.length - 1 ? poolToken(quote.to) : token,
      )
      const call = (data: `0x${string}`, value = 0n) => ({ to: router, data, value })
      if (quote.type === 'exactInput') {
        if (quote.from.native)
          return call(
            encodeFunctionData({
              abi: routerAbi,
              functionName: 'swapExactETHForTokens',
              args: [limit, path, recipient, deadline],
            }),
            quote.fromAmount,
          )
        return call(
          encodeFunctionData({
            abi: routerAbi,
            functionName: quote.to.native ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
            args: [quote.fromAmount, limit, path, recipient, deadline],
          }),
        )
      }
      // The router refunds what an exact output did not need of the ETH sent.
      if (quote.from.native)
        return call(
          encodeFunctionData({
            abi: routerAbi,
            functionName: 'swapETHForExactTokens',
            args: [quote.toAmount, path, recipient, deadline],
          }),
          limit,
        )
      return call(
        encodeFunctionData({
          abi: routerAbi,
          functionName: quote.to.native ? 'swapTokensForExactETH' : 'swapTokensForExactTokens',
          args: [quote.toAmount, limit, path, recipient, deadline],
        }),
      )
    },
  }
}

/** A path's hops, each its two tokens in the swap's direction. */
function hopsOf(path: readonly Address[]): (readonly [Address, Address])[] {
  return path.slice(1).map((to, index) => [path[index] as Address, to] as const)
}

type Reserves = { in: bigint; out: bigint }

/**
 * How far below the pools' current price the swap gives, in percent (4 decimals): `toAmount` against what
 * `fromAmount` would buy at each pool's spot price less its 0.3 % fee, so the fee is not counted as impact.
 */
export function priceImpact(fromAmount: bigint, toAmount: bigint, reserves: readonly Reserves[]): number {
  let ideal = fromAmount
  let scale = 1n
  for (const pool of reserves) {
    ideal *= 997n * pool.out
    scale *= 1000n * pool.in
  }
  if (ideal === 0n) return 0
  const ppm = 1_000_000n - (toAmount * scale * 1_000_000n) / ideal
  return Math.min(100, Math.max(0, Number(ppm) / 10_000))
}
