import { type Address, createPublicClient, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devnetTokens, uniswapV2, uniswapV3 } from '../Chains.ts'
import * as Devnet from '../Devnet.ts'
import { choosePort } from '../Process.ts'
import { routerAbi as v2RouterAbi } from './UniswapV2.ts'
import * as UniswapV3 from './UniswapV3.ts'
import * as V3Pools from './V3Pools.ts'

let devnet: Devnet.Instance
beforeAll(async () => {
  const ports = [await choosePort('127.0.0.1', 0), await choosePort('127.0.0.1', 0)] as const
  devnet = await Devnet.start({ ports })
})
afterAll(() => devnet?.stop())

const reader = (index: 0 | 1) =>
  createPublicClient({ transport: http(devnet.chains[index].rpcUrl), pollingInterval: 50 })
const { ALT, tUSD } = devnetTokens
const weth = uniswapV2.weth

/** What QuoterV2 gives for `amount` of `tokenIn` through the pool of `fee`. */
async function v3Out(index: 0 | 1, tokenIn: Address, tokenOut: Address, fee: number, amount: bigint) {
  const { result } = await reader(index).simulateContract({
    address: uniswapV3.quoter,
    abi: UniswapV3.quoterAbi,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn, tokenOut, amountIn: amount, fee, sqrtPriceLimitX96: 0n }],
  })
  return result[0]
}

async function v2Out(index: 0 | 1, path: Address[], amount: bigint) {
  const amounts = await reader(index).readContract({
    address: uniswapV2.router,
    abi: v2RouterAbi,
    functionName: 'getAmountsOut',
    args: [amount, path],
  })
  return amounts.at(-1) ?? 0n
}

describe('the devnet’s Uniswap v3', () => {
  it.each([0, 1] as const)(
    'runs the factory, QuoterV2 and SwapRouter02 wired together on chain %i',
    async (index) => {
      const client = reader(index)
      const router = { address: uniswapV3.router, abi: UniswapV3.routerAbi } as const
      expect(await client.readContract({ ...router, functionName: 'factory' })).toBe(uniswapV3.factory)
      expect(await client.readContract({ ...router, functionName: 'factoryV2' })).toBe(uniswapV2.factory)
      expect(await client.readContract({ ...router, functionName: 'WETH9' })).toBe(weth)
      for (const [fee, spacing] of Object.entries(UniswapV3.tickSpacings))
        expect(
          await client.readContract({
            address: uniswapV3.factory,
            abi: UniswapV3.factoryAbi,
            functionName: 'feeAmountTickSpacing',
            args: [Number(fee)],
          }),
        ).toBe(spacing)
    },
  )

  it.each([0, 1] as const)(
    'holds each pool at its fee tier, priced as the devnet prices, on chain %i',
    async (index) => {
      const client = reader(index)
      for (const pool of V3Pools.pools) {
        const [a, b] = pool.sides.map((side) => (side === 'ETH' ? weth : devnetTokens[side].address))
        const address = await client.readContract({
          address: uniswapV3.factory,
          abi: UniswapV3.factoryAbi,
          functionName: 'getPool',
          args: [a as Address, b as Address, pool.fee],
        })
        expect(await client.readContract({ address, abi: UniswapV3.poolAbi, functionName: 'fee' })).toBe(
          pool.fee,
        )
        expect(
          await client.readContract({ address, abi: UniswapV3.poolAbi, functionName: 'liquidity' }),
        ).toBeGreaterThan(0n)
      }
      // 1 ETH buys about $3,000 of tUSD at 0.05 %: less the fee and a 1 % move in a $300,000 pool.
      const out = await v3Out(index, weth, tUSD.address, 500, parseEther('1'))
      expect(out).toBeGreaterThan(parseUnits('2960', 6))
      expect(out).toBeLessThan(parseUnits('3000', 6))
    },
  )

  it('makes v3 the better venue for ETH → tUSD and v2 the better for ALT → ETH', async () => {
    const eth = parseEther('1')
    expect(await v3Out(0, weth, tUSD.address, 500, eth)).toBeGreaterThan(
      await v2Out(0, [weth, tUSD.address], eth),
    )
    const alt = parseEther('100')
    expect(await v2Out(0, [ALT.address, weth], alt)).toBeGreaterThan(
      await v3Out(0, ALT.address, weth, 10000, alt),
    )
  })

  it('starts a pool at √(amount1 ÷ amount0) in Q64.96', () => {
    expect(V3Pools.sqrtPriceX96(1n, 1n)).toBe(2n ** 96n)
    expect(V3Pools.sqrtPriceX96(1n, 4n)).toBe(2n ** 97n)
  })
})
