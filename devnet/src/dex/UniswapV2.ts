/**
 * Uniswap v2 as Uniswap published it on npm: the creation code of the factory (`@uniswap/v2-core`), of
 * Router02 and WETH9 (`@uniswap/v2-periphery`), read from their build artifacts, and the few functions of
 * their ABIs the devnet calls. The same bytecode as on mainnet, so Router02's hard-coded pair init-code hash
 * holds for the pairs the devnet's factory creates (`UniswapV2.test.ts` checks it).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Hex, isHex, parseAbi } from 'viem'

/**
 * keccak256 of the pair's creation code, as Router02 (`UniswapV2Library.pairFor`) hard-codes it: the router
 * finds pairs by CREATE2 address, so only a factory whose pair has exactly this code works with it.
 */
export const pairInitCodeHash = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'

const require = createRequire(import.meta.url)

/** Creation code of an artifact (`build/*.json`, compiled by Uniswap with waffle: `bytecode` is bare hex). */
function bytecodeOf(artifact: string): Hex {
  // Read rather than imported: the artifacts are 50–400 KB of JSON that TypeScript would type in full.
  const parsed: unknown = JSON.parse(readFileSync(require.resolve(artifact), 'utf8'))
  const bytecode =
    typeof parsed === 'object' && parsed !== null && 'bytecode' in parsed ? `0x${parsed.bytecode}` : ''
  if (!isHex(bytecode) || bytecode.length < 4) throw new Error(`${artifact} holds no bytecode`)
  return bytecode
}

let artifacts: { factory: Hex; pair: Hex; router: Hex; weth: Hex } | undefined

/** The creation codes, read once per process. */
export function bytecodes(): NonNullable<typeof artifacts> {
  artifacts ??= {
    factory: bytecodeOf('@uniswap/v2-core/build/UniswapV2Factory.json'),
    pair: bytecodeOf('@uniswap/v2-core/build/UniswapV2Pair.json'),
    router: bytecodeOf('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
    weth: bytecodeOf('@uniswap/v2-periphery/build/WETH9.json'),
  }
  return artifacts
}

export const factoryAbi = parseAbi([
  'constructor(address feeToSetter)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function allPairsLength() view returns (uint256)',
  'function createPair(address tokenA, address tokenB) returns (address pair)',
])

export const routerAbi = parseAbi([
  'constructor(address factory, address WETH)',
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])

export const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])

export const wethAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function balanceOf(address) view returns (uint256)',
])
