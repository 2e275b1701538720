/**
 * The devnet's Uniswap v2 pools: WETH/ALT, WETH/tUSD and ALT/tUSD, seeded by account 0 at the devnet's
 * prices, so a swap quoted on the devnet gives what the price table says, less the pools' fee and impact.
 * `Devnet.start` runs {@link funding}'s steps, then {@link deposits}'.
 */
import {
  type Account,
  type Address,
  type Chain,
  encodePacked,
  getCreate2Address,
  type Hash,
  keccak256,
  maxUint256,
  parseUnits,
  type Transport,
  type WalletClient,
} from 'viem'
import { devnetTokens, uniswapV2 } from '../Chains.ts'
import { testTokenAbi } from '../TestToken.ts'
import { pairInitCodeHash, routerAbi } from './UniswapV2.ts'

/** The devnet's prices in USD: the pools are seeded at them and the API's price table says them. */
export const prices = { ETH: 3000, ALT: 1.25, tUSD: 1 } as const

/**
 * What each side of each pool is worth: $300,000, so each WETH pool holds 100 ETH and a 1-ETH swap moves
 * its price about 1 %.
 */
const depthUsd = 300_000

/** One side of a pool: the native currency (wrapped by the router) or a devnet token. */
type Side = 'ETH' | keyof typeof devnetTokens

/** The pools, each by its two sides. */
export const pools: readonly (readonly [Side, Side])[] = [
  ['ETH', 'ALT'],
  ['ETH', 'tUSD'],
  ['ALT', 'tUSD'],
]

/** What one side of a pool holds, in the smallest unit: {@link depthUsd} at the side's price. */
export function depth(side: Side): bigint {
  const decimals = side === 'ETH' ? 18 : devnetTokens[side].decimals
  return parseUnits(String(depthUsd / prices[side]), decimals)
}

/** A token's address as a pool knows it: WETH for the native currency. */
export function poolToken(side: Side): Address {
  return side === 'ETH' ? uniswapV2.weth : devnetTokens[side].address
}

/**
 * The pair of two tokens, computed as Router02 finds it (CREATE2 from the factory, sorted tokens, the
 * pair's init-code hash), so it needs no call to the chain.
 * @example Pools.pairAddress(uniswapV2.weth, testTokenAddress)
 */
export function pairAddress(a: Address, b: Address): Address {
  const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
  return getCreate2Address({
    from: uniswapV2.factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: pairInitCodeHash,
  })
}

/** A transaction of account 0's, sent when its turn comes (anvil numbers them in the order they arrive). */
export type Step = { what: string; send(client: Sender): Promise<Hash> }
type Sender = WalletClient<Transport, Chain, Account>

const tokenSides = Object.keys(devnetTokens) as (keyof typeof devnetTokens)[]

/** Tokens on a side of any pool, over all pools: what account 0 mints for them beside its own funds. */
function pooled(side: keyof typeof devnetTokens): bigint {
  return BigInt(pools.filter((pool) => pool.includes(side)).length) * depth(side)
}

/**
 * Account 0 mints the tokens the pools will hold (beside the funds every account gets, which stay whole) and
 * lets the router take them.
 */
export function funding(): Step[] {
  return tokenSides.flatMap((side): Step[] => {
    const address = devnetTokens[side].address
    return [
      {
        what: `minting ${side} for the pools`,
        send: (client) =>
          client.writeContract({
            address,
            abi: testTokenAbi,
            functionName: 'mint',
            args: [client.account.address, pooled(side)],
          }),
      },
      {
        what: `approving the router for ${side}`,
        send: (client) =>
          client.writeContract({
            address,
            abi: testTokenAbi,
            functionName: 'approve',
            args: [uniswapV2.router, maxUint256],
          }),
      },
    ]
  })
}

/** Account 0 adds the liquidity of every pool (the router creates each pair on its first deposit). */
export function deposits(): Step[] {
  return pools.map(([a, b]): Step => {
    const what = `seeding the ${a}/${b} pool`
    if (a === 'ETH' && b !== 'ETH')
      return {
        what,
        send: (client) =>
          client.writeContract({
            address: uniswapV2.router,
            abi: routerAbi,
            functionName: 'addLiquidityETH',
            args: [poolToken(b), depth(b), 0n, 0n, client.account.address, maxUint256],
            value: depth('ETH'),
          }),
      }
    return {
      what,
      send: (client) =>
        client.writeContract({
          address: uniswapV2.router,
          abi: routerAbi,
          functionName: 'addLiquidity',
          args: [poolToken(a), poolToken(b), depth(a), depth(b), 0n, 0n, client.account.address, maxUint256],
        }),
    }
  })
}
