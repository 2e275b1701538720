/**
 * The built-in swap adapter: a Uniswap v2 deployment (Router02, its factory and WETH), read on the chain's
 * own RPC. A quote asks the router's `getAmountsOut` for the direct pool and for the route through WETH, at
 * one block, and keeps the one that gives more; its price impact comes from the pools' reserves.
 */
import { type Address, encodeFunctionData, isAddressEqual, parseAbi, zeroAddress } from 'viem'
import type { Chain, Swaps } from '../../Config.ts'
import { RpcError } from '../../internal/rpc.ts'
import { clientOf } from '../balances/Evm.ts'
import type { AdapterOf, Asset, Quote, SwapAdapter } from './Adapter.ts'

const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])
const factoryAbi = parseAbi(['function getPair(address tokenA, address tokenB) view returns (address pair)'])
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])

/**
 * Gas of a swap through one pool, and of each pool more: a quote cannot estimate the visitor's swap (it may
 * lack the allowance yet), so it says these. Measured on the devnet's Router02: 135,000 (ETH for a token)
 * to 145,000 (a token for ETH) through one pool, 172,000 through two; rounded up for a first-time holder,
 * whose fresh balance slot costs 20,000 more. The route tests check real swaps stay under them.
 */
const gasOfOnePool = 170_000n
const gasPerPoolMore = 70_000n

/**
 * The adapter of a chain whose configuration names a Uniswap v2 deployment, else `undefined`.
 * @example const adapter = UniswapV2.fromConfig(chain)
 */
export const fromConfig: AdapterOf = (chain) =>
  chain.swaps?.uniswapV2 ? create(chain, chain.swaps.uniswapV2) : undefined

/**
 * A Uniswap v2 adapter for `chain`, read on its RPC.
 * @example UniswapV2.create(chain, { router, factory, weth })
 */
export function create(chain: Chain, contracts: Swaps['uniswapV2']): SwapAdapter {
  const router = contracts.router as Address
  const factory = contracts.factory as Address
  const weth = contracts.weth as Address
  const client = clientOf(chain)
  // The router swaps WETH; the native currency is wrapped on the way in and unwrapped on the way out.
  const poolToken = (asset: Asset): Address => (asset.native ? weth : asset.address)
  const read = async <T>(reading: () => Promise<T>): Promise<T> => {
    try {
      return await reading()
    } catch (error) {
      throw new RpcError(chain.id, { cause: error })
    }
  }

  return {
    id: 'uniswap-v2',
    spender: router,

    async quote(request) {
      const [from, to] = [poolToken(request.from), poolToken(request.to)]
      // ETH for WETH is a wrap, not a swap: no pool does it.
      if (isAddressEqual(from, to)) return undefined
      const paths: Address[][] = [[from, to]]
      if (!isAddressEqual(from, weth) && !isAddressEqual(to, weth)) paths.push([from, weth, to])
      // Uncached: viem keeps a block number for its polling interval (4 s), longer than a block on most chains.
      const blockNumber = await read(() => client.getBlockNumber({ cacheTime: 0 }))
      const outs = await read(() =>
        client.multicall({
          deployless: true,
          allowFailure: true,
          blockNumber,
          // A path without a pool, or with an empty one, reverts: that route is out.
          contracts: paths.map((path) => ({
            address: router,
            abi: routerAbi,
            functionName: 'getAmountsOut' as const,
            args: [request.amount, path] as const,
          })),
        }),
      )
      const best = paths
        .map((path, index) => ({
          path,
          out: outs[index]?.status === 'success' ? outs[index].result.at(-1) : 0n,
        }))
        // Fewer pools first, so a tie goes to the cheaper route.
        .reduce((kept, next) => ((next.out ?? 0n) > (kept.out ?? 0n) ? next : kept))
      const toAmount = best.out ?? 0n
      if (toAmount === 0n) return undefined
      const reserves = await reservesAlong(best.path, blockNumber)
      const route = best.path.map((token, index) =>
        index === 0 ? request.from.address : index === best.path.length - 1 ? request.to.address : token,
      )
      return {
        ...request,
        toAmount,
        route,
        priceImpact: priceImpact(request.amount, toAmount, reserves),
        gas: gasOfOnePool + gasPerPoolMore * BigInt(best.path.length - 2),
        blockNumber,
      } satisfies Quote
    },

    async buildSwap({ quote, minimumToAmount, recipient, deadline }) {
      const path = quote.route.map((token, index) =>
        index === 0 ? poolToken(quote.from) : index === quote.route.length - 1 ? poolToken(quote.to) : token,
      )
      if (quote.from.native)
        return {
          to: router,
          data: encodeFunctionData({
            abi: routerAbi,
            functionName: 'swapExactETHForTokens',
            args: [minimumToAmount, path, recipient, deadline],
          }),
          value: quote.amount,
        }
      return {
        to: router,
        data: encodeFunctionData({
          abi: routerAbi,
          functionName: quote.to.native ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
          args: [quote.amount, minimumToAmount, path, recipient, deadline],
        }),
        value: 0n,
      }
    },
  }

  /** Each pool's reserves along `path`, in the swap's direction, at `blockNumber`. */
  async function reservesAlong(path: Address[], blockNumber: bigint): Promise<Reserves[]> {
    const hops = path.slice(1).map((to, index) => [path[index] as Address, to] as const)
    const pairs = await read(() =>
      client.multicall({
        deployless: true,
        allowFailure: false,
        blockNumber,
        contracts: hops.map(([a, b]) => ({
          address: factory,
          abi: factoryAbi,
          functionName: 'getPair' as const,
          args: [a, b] as const,
        })),
      }),
    )
    if (pairs.some((pair) => isAddressEqual(pair, zeroAddress)))
      throw new RpcError(chain.id, { cause: new Error('the router quoted a pair its factory does not know') })
    const reserves = await read(() =>
      client.multicall({
        deployless: true,
        allowFailure: false,
        blockNumber,
        contracts: pairs.map((pair) => ({
          address: pair,
          abi: pairAbi,
          functionName: 'getReserves' as const,
        })),
      }),
    )
    return hops.map(([a, b], index) => {
      const [reserve0, reserve1] = reserves[index] ?? [0n, 0n]
      // A pair orders its tokens by address: token0 is the lower one.
      return BigInt(a) < BigInt(b) ? { in: reserve0, out: reserve1 } : { in: reserve1, out: reserve0 }
    })
  }
}

type Reserves = { in: bigint; out: bigint }

/**
 * How far below the pools' current price the swap gives, in percent (4 decimals): `toAmount` against what
 * `amount` would buy at each pool's spot price less its 0.3 % fee, so the fee is not counted as impact.
 */
export function priceImpact(amount: bigint, toAmount: bigint, reserves: readonly Reserves[]): number {
  let ideal = amount
  let scale = 1n
  for (const pool of reserves) {
    ideal *= 997n * pool.out
    scale *= 1000n * pool.in
  }
  if (ideal === 0n) return 0
  const ppm = 1_000_000n - (toAmount * scale * 1_000_000n) / ideal
  return Math.min(100, Math.max(0, Number(ppm) / 10_000))
}
