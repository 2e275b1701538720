/**
 * The Uniswap v3 venue: a deployment's factory, QuoterV2 and SwapRouter02, read on the chain's own RPC. A
 * quote asks QuoterV2 for the direct pool at every fee tier and for the routes through WETH at every pair of
 * tiers, all in one call at the request's block, with each pool's current price beside them for the price
 * impact. A pool that does not exist, or cannot fill the amount, makes its route revert: it is left out.
 * The swap is SwapRouter02's `multicall(deadline, …)`: `exactInput` or `exactOutput`, with the native
 * currency wrapped on the way in (and what an exact output did not need refunded) or unwrapped on the way out.
 */
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getCreate2Address,
  type Hex,
  isAddressEqual,
  keccak256,
  parseAbi,
} from 'viem'
import type { Chain } from '../../Config.ts'
import { clientOf } from '../balances/Evm.ts'
import type { Asset, Quote, SwapAdapter } from './Adapter.ts'
import { readOn } from './Reads.ts'

const quoterAbi = parseAbi([
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
  'function quoteExactOutput(bytes path, uint256 amountOut) returns (uint256 amountIn, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
])
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
])
const routerAbi = parseAbi([
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'struct ExactInputParams { bytes path; address recipient; uint256 amountIn; uint256 amountOutMinimum; }',
  'function exactInput(ExactInputParams params) payable returns (uint256 amountOut)',
  'struct ExactOutputParams { bytes path; address recipient; uint256 amountOut; uint256 amountInMaximum; }',
  'function exactOutput(ExactOutputParams params) payable returns (uint256 amountIn)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function refundETH() payable',
])

/**
 * keccak256 of the pool's creation code, as v3-periphery's `PoolAddress` hard-codes it: QuoterV2 and
 * SwapRouter02 find pools by their CREATE2 address with it, and so does this venue.
 */
const poolInitCodeHash = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

/** The fee tiers of Uniswap's deployments, in hundredths of a basis point. */
export const feeTiers = [100, 500, 3000, 10000] as const

/** SwapRouter02's `Constants.ADDRESS_THIS`: the router itself keeps the output (to unwrap WETH). */
const addressThis: Address = '0x0000000000000000000000000000000000000002'

/**
 * What SwapRouter02 spends beside the pools' swaps, which QuoterV2's `gasEstimate` counts: the multicall,
 * the transfers in and out, a wrap or an unwrap. Measured on the devnet: 62,000 (ETH for a token) to
 * 88,000 (a token for ETH); rounded up for a first-time holder's fresh balance slot. The route tests check
 * real swaps stay under the quote's gas.
 */
const routerGas = 110_000n

/** A deployment's factory, QuoterV2, SwapRouter02 and the WETH they were deployed with. */
export type Contracts = { factory: string; quoter: string; router: string; weth: string }

type Hop = { tokenIn: Address; tokenOut: Address; fee: number }

/**
 * A Uniswap v3 venue on `chain`, read on its RPC.
 * @example UniswapV3.create(chain, { factory, quoter, router, weth })
 */
export function create(chain: Chain, contracts: Contracts): SwapAdapter {
  const factory = contracts.factory as Address
  const quoter = contracts.quoter as Address
  const router = contracts.router as Address
  const weth = contracts.weth as Address
  const client = clientOf(chain)
  const read = readOn(chain)
  const poolToken = (asset: Asset): Address => (asset.native ? weth : asset.address)
  const poolOf = (hop: Hop): Address => {
    const [token0, token1] =
      BigInt(hop.tokenIn) < BigInt(hop.tokenOut) ? [hop.tokenIn, hop.tokenOut] : [hop.tokenOut, hop.tokenIn]
    return getCreate2Address({
      from: factory,
      salt: keccak256(
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
          [token0, token1, hop.fee],
        ),
      ),
      bytecodeHash: poolInitCodeHash,
    })
  }

  return {
    id: 'uniswap-v3',
    name: 'Uniswap v3',
    spender: router,

    async quote(request) {
      const [from, to] = [poolToken(request.from), poolToken(request.to)]
      if (isAddressEqual(from, to)) return []
      const routes: Hop[][] = feeTiers.map((fee) => [{ tokenIn: from, tokenOut: to, fee }])
      if (!isAddressEqual(from, weth) && !isAddressEqual(to, weth))
        for (const first of feeTiers)
          for (const second of feeTiers)
            routes.push([
              { tokenIn: from, tokenOut: weth, fee: first },
              { tokenIn: weth, tokenOut: to, fee: second },
            ])
      const pools = [...new Set(routes.flat().map(poolOf))]
      const exactIn = request.type === 'exactInput'
      const answers = await read(() =>
        client.multicall({
          deployless: true,
          allowFailure: true,
          blockNumber: request.blockNumber,
          contracts: [
            ...routes.map((hops) => ({
              address: quoter,
              abi: quoterAbi,
              functionName: exactIn ? ('quoteExactInput' as const) : ('quoteExactOutput' as const),
              // An exact output's path runs from the output back to the input.
              args: [pathOf(exactIn ? hops : reversed(hops)), request.amount] as const,
            })),
            ...pools.map((pool) => ({ address: pool, abi: poolAbi, functionName: 'slot0' as const })),
          ],
        }),
      )
      const priceOf = new Map(
        pools.map((pool, index) => {
          const answer = answers[routes.length + index]
          return [
            pool,
            answer?.status === 'success' && Array.isArray(answer.result) ? (answer.result[0] as bigint) : 0n,
          ]
        }),
      )
      return routes.flatMap((hops, index): Quote[] => {
        const answer = answers[index]
        if (answer?.status !== 'success' || !Array.isArray(answer.result)) return []
        const [quoted, , , gasEstimate] = answer.result as readonly [bigint, unknown, unknown, bigint]
        const [fromAmount, toAmount] = exactIn ? [request.amount, quoted] : [quoted, request.amount]
        const prices = hops.map((hop) => priceOf.get(poolOf(hop)) ?? 0n)
        if (fromAmount === 0n || toAmount === 0n || prices.includes(0n)) return []
        return [
          {
            venue: 'uniswap-v3',
            from: request.from,
            to: request.to,
            type: request.type,
            blockNumber: request.blockNumber,
            fromAmount,
            toAmount,
            route: [
              request.from.address,
              ...hops.slice(0, -1).map((hop) => hop.tokenOut),
              request.to.address,
            ],
            fees: hops.map((hop) => hop.fee),
            priceImpact: priceImpact(
              fromAmount,
              toAmount,
              hops.map((hop, at) => ({ ...hop, sqrtPriceX96: prices[at] ?? 0n })),
            ),
            gas: gasEstimate + routerGas,
          },
        ]
      })
    },

    async buildSwap({ quote, limit, recipient, deadline }) {
      const tokens = quote.route.map((token, index) =>
        index === 0 ? poolToken(quote.from) : index === quote.route.length - 1 ? poolToken(quote.to) : token,
      )
      const hops = quote.fees.map((fee, index) => ({
        tokenIn: tokens[index] as Address,
        tokenOut: tokens[index + 1] as Address,
        fee,
      }))
      // The native currency out: the router keeps the WETH, then unwraps it to the visitor.
      const to = quote.to.native ? addressThis : recipient
      const calls: Hex[] = []
      if (quote.type === 'exactInput')
        calls.push(
          encodeFunctionData({
            abi: routerAbi,
            functionName: 'exactInput',
            args: [
              { path: pathOf(hops), recipient: to, amountIn: quote.fromAmount, amountOutMinimum: limit },
            ],
          }),
        )
      else
        calls.push(
          encodeFunctionData({
            abi: routerAbi,
            functionName: 'exactOutput',
            args: [
              {
                path: pathOf(reversed(hops)),
                recipient: to,
                amountOut: quote.toAmount,
                amountInMaximum: limit,
              },
            ],
          }),
        )
      if (quote.to.native)
        calls.push(
          encodeFunctionData({
            abi: routerAbi,
            functionName: 'unwrapWETH9',
            args: [quote.type === 'exactInput' ? limit : quote.toAmount, recipient],
          }),
        )
      // ETH sent for an exact output that needed less of it comes back.
      if (quote.from.native && quote.type === 'exactOutput')
        calls.push(encodeFunctionData({ abi: routerAbi, functionName: 'refundETH' }))
      const value = !quote.from.native ? 0n : quote.type === 'exactInput' ? quote.fromAmount : limit
      return {
        to: router,
        data: encodeFunctionData({ abi: routerAbi, functionName: 'multicall', args: [deadline, calls] }),
        value,
      }
    },
  }
}

/** v3's packed path: token, fee (3 bytes), token, fee, …, token. */
function pathOf(hops: readonly Hop[]): Hex {
  const [first] = hops
  if (!first) throw new Error('A path has at least one hop')
  const types: ('address' | 'uint24')[] = ['address']
  const values: (Address | number)[] = [first.tokenIn]
  for (const hop of hops) {
    types.push('uint24', 'address')
    values.push(hop.fee, hop.tokenOut)
  }
  return encodePacked(types, values)
}

/** The same hops walked from the output back to the input. */
function reversed(hops: readonly Hop[]): Hop[] {
  return [...hops].reverse().map((hop) => ({ tokenIn: hop.tokenOut, tokenOut: hop.tokenIn, fee: hop.fee }))
}

/**
 * How far below the pools' current prices the swap gives, in percent (4 decimals): `toAmount` against what
 * `fromAmount` would buy at each pool's spot price (its `sqrtPriceX96`, token1 per token0 in Q64.96) less
 * its fee, so the fee is not counted as impact.
 */
export function priceImpact(
  fromAmount: bigint,
  toAmount: bigint,
  hops: readonly (Hop & { sqrtPriceX96: bigint })[],
): number {
  const million = 1_000_000n
  let ideal = fromAmount
  let scale = 1n
  for (const hop of hops) {
    const price = hop.sqrtPriceX96 * hop.sqrtPriceX96
    const zeroForOne = BigInt(hop.tokenIn) < BigInt(hop.tokenOut)
    ideal *= (zeroForOne ? price : 1n << 192n) * (million - BigInt(hop.fee))
    scale *= (zeroForOne ? 1n << 192n : price) * million
  }
  if (ideal === 0n) return 0
  const ppm = million - (toAmount * scale * million) / ideal
  return Math.min(100, Math.max(0, Number(ppm) / 10_000))
}
