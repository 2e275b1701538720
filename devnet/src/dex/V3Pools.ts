/**
 * Uniswap v3 on the devnet: the factory, the position manager, QuoterV2 and SwapRouter02 deployed by
 * account 0 after everything else (so no earlier address moves), and full-range pools at several fee tiers,
 * seeded at the devnet's prices. The tiers and depths make each venue best somewhere: ETH/tUSD is deepest at
 * 0.05 % on v3, so v3 beats v2's 0.3 % there; ETH/ALT is only at 1 % on v3, so v2 wins it.
 * `Devnet.start` runs {@link deployments}, then {@link funding}, {@link pools} and {@link positions}.
 */
import { type Address, maxUint256, parseUnits, zeroAddress } from 'viem'
import { devnetTokens, uniswapV2, uniswapV3 } from '../Chains.ts'
import { testTokenAbi } from '../TestToken.ts'
import { prices, type Step } from './Pools.ts'
import * as UniswapV3 from './UniswapV3.ts'

/** One side of a pool: the native currency (as WETH) or a devnet token. */
type Side = 'ETH' | keyof typeof devnetTokens

type Pool = { sides: readonly [Side, Side]; fee: UniswapV3.FeeTier; depthUsd: number }

/** The v3 pools, each with what one side of it is worth in USD. */
export const pools: readonly Pool[] = [
  { sides: ['ETH', 'tUSD'], fee: 500, depthUsd: 300_000 },
  { sides: ['ETH', 'tUSD'], fee: 3000, depthUsd: 30_000 },
  { sides: ['ETH', 'ALT'], fee: 10000, depthUsd: 30_000 },
  { sides: ['ALT', 'tUSD'], fee: 3000, depthUsd: 30_000 },
]

const tokenOf = (side: Side): Address => (side === 'ETH' ? uniswapV2.weth : devnetTokens[side].address)

function amountOf(side: Side, usd: number): bigint {
  const decimals = side === 'ETH' ? 18 : devnetTokens[side].decimals
  return parseUnits(String(usd / prices[side]), decimals)
}

/** A pool's tokens in the factory's order (token0 the lower address), with what each side deposits. */
function sorted(pool: Pool) {
  const [a, b] = pool.sides.map((side) => ({ token: tokenOf(side), amount: amountOf(side, pool.depthUsd) }))
  if (!a || !b) throw new Error('a pool has two sides')
  return BigInt(a.token) < BigInt(b.token) ? ([a, b] as const) : ([b, a] as const)
}

/**
 * Gas the creation of a pool and the first position in it are given: anvil's estimates for a position
 * (0.57–0.61 M) fell short now and then, and an out-of-gas seeding fails the devnet's start.
 */
const creationGas = 6_000_000n
const positionGas = 1_000_000n

/** √(amount1 ÷ amount0) in Q64.96, the pool's starting price (token1 per token0, in their smallest units). */
export function sqrtPriceX96(amount0: bigint, amount1: bigint): bigint {
  return sqrt((amount1 << 192n) / amount0)
}

function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}

/** The widest ticks a pool of `fee` takes: a full-range position, which holds liquidity as v2's pairs do. */
function fullRange(fee: UniswapV3.FeeTier): [number, number] {
  const spacing = UniswapV3.tickSpacings[fee]
  const upper = Math.floor(887272 / spacing) * spacing
  return [-upper, upper]
}

/** The contracts, each checked to land at `Chains.ts`'s `uniswapV3` address. */
export function deployments(): (Step & { expected: Address })[] {
  const code = UniswapV3.bytecodes()
  return [
    {
      what: 'Uniswap v3 factory',
      expected: uniswapV3.factory,
      send: (client) => client.deployContract({ abi: [], bytecode: code.factory }),
    },
    {
      what: 'Uniswap v3 position manager',
      expected: uniswapV3.positionManager,
      // No token descriptor: the devnet never asks a position's tokenURI.
      send: (client) =>
        client.deployContract({
          abi: UniswapV3.positionManagerAbi,
          bytecode: code.positionManager,
          args: [uniswapV3.factory, uniswapV2.weth, zeroAddress],
        }),
    },
    {
      what: 'Uniswap v3 QuoterV2',
      expected: uniswapV3.quoter,
      send: (client) =>
        client.deployContract({
          abi: UniswapV3.quoterAbi,
          bytecode: code.quoter,
          args: [uniswapV3.factory, uniswapV2.weth],
        }),
    },
    {
      what: 'SwapRouter02',
      expected: uniswapV3.router,
      send: (client) =>
        client.deployContract({
          abi: UniswapV3.routerAbi,
          bytecode: code.router,
          args: [uniswapV2.factory, uniswapV3.factory, uniswapV3.positionManager, uniswapV2.weth],
        }),
    },
  ]
}

/** What account 0 mints of `side` (or wraps, for ETH) for the v3 pools, over all of them. */
export function minted(side: Side): bigint {
  return pools
    .filter((pool) => pool.sides.includes(side))
    .reduce((sum, pool) => sum + amountOf(side, pool.depthUsd), 0n)
}

/** Account 0 wraps the ETH and mints the tokens the pools will hold, and lets the position manager take them. */
export function funding(): Step[] {
  const approve = (token: Address, what: string): Step => ({
    what: `approving the position manager for ${what}`,
    send: (client) =>
      client.writeContract({
        address: token,
        abi: UniswapV3.wethAbi,
        functionName: 'approve',
        args: [uniswapV3.positionManager, maxUint256],
      }),
  })
  const tokens = Object.keys(devnetTokens) as (keyof typeof devnetTokens)[]
  return [
    {
      what: 'wrapping ETH for the v3 pools',
      send: (client) =>
        client.writeContract({
          address: uniswapV2.weth,
          abi: UniswapV3.wethAbi,
          functionName: 'deposit',
          value: minted('ETH'),
        }),
    },
    approve(uniswapV2.weth, 'WETH'),
    ...tokens.flatMap((side): Step[] => [
      {
        what: `minting ${side} for the v3 pools`,
        send: (client) =>
          client.writeContract({
            address: devnetTokens[side].address,
            abi: testTokenAbi,
            functionName: 'mint',
            args: [client.account.address, minted(side)],
          }),
      },
      approve(devnetTokens[side].address, side),
    ]),
  ]
}

/** Creates each pool at its starting price. */
export function creations(): Step[] {
  return pools.map((pool) => {
    const [token0, token1] = sorted(pool)
    return {
      what: `creating the v3 ${pool.sides.join('/')} pool at ${pool.fee / 10_000} %`,
      send: (client) =>
        client.writeContract({
          address: uniswapV3.positionManager,
          abi: UniswapV3.positionManagerAbi,
          functionName: 'createAndInitializePoolIfNecessary',
          args: [token0.token, token1.token, pool.fee, sqrtPriceX96(token0.amount, token1.amount)],
          gas: creationGas,
        }),
    }
  })
}

/**
 * Where the positions' NFTs go: an address no one holds a key to. The liquidity is the devnet's for good, and
 * account 0 is the test wallet, whose NFTs tab should show the devnet's collections, not four pool positions.
 */
const positionOwner: Address = '0x000000000000000000000000000000000000dEaD'

/** Account 0 adds each pool's full-range liquidity, the positions owned by {@link positionOwner}. */
export function positions(): Step[] {
  return pools.map((pool) => {
    const [token0, token1] = sorted(pool)
    const [tickLower, tickUpper] = fullRange(pool.fee)
    return {
      what: `seeding the v3 ${pool.sides.join('/')} pool at ${pool.fee / 10_000} %`,
      send: (client) =>
        client.writeContract({
          address: uniswapV3.positionManager,
          abi: UniswapV3.positionManagerAbi,
          functionName: 'mint',
          args: [
            {
              token0: token0.token,
              token1: token1.token,
              fee: pool.fee,
              tickLower,
              tickUpper,
              amount0Desired: token0.amount,
              amount1Desired: token1.amount,
              amount0Min: 0n,
              amount1Min: 0n,
              recipient: positionOwner,
              deadline: maxUint256,
            },
          ],
          gas: positionGas,
        }),
    }
  })
}
