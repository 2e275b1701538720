/**
 * Uniswap v3 as Uniswap published it on npm: the creation code of the factory (`@uniswap/v3-core`), of
 * QuoterV2 and the NonfungiblePositionManager (`@uniswap/v3-periphery`) and of SwapRouter02
 * (`@uniswap/swap-router-contracts`), read from their Hardhat artifacts, and the few functions of their ABIs
 * the devnet calls. The same bytecode as on mainnet, so the periphery's hard-coded pool init-code hash holds
 * for the pools the devnet's factory creates (`UniswapV3.test.ts` checks it).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Hex, isHex, parseAbi } from 'viem'

/**
 * keccak256 of the pool's creation code, as the periphery (`PoolAddress.POOL_INIT_CODE_HASH`) hard-codes it:
 * QuoterV2, SwapRouter02 and the position manager find pools by CREATE2 address.
 */
export const poolInitCodeHash = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

/** The fee tiers the factory enables at deployment, in hundredths of a basis point, with their tick spacing. */
export const tickSpacings = { 500: 10, 3000: 60, 10000: 200 } as const
export type FeeTier = keyof typeof tickSpacings

const require = createRequire(import.meta.url)

/** Creation code of a Hardhat artifact (`bytecode` is 0x-prefixed, with no library left to link). */
function bytecodeOf(artifact: string): Hex {
  // Read rather than imported: the artifacts are 100–300 KB of JSON that TypeScript would type in full.
  const parsed: unknown = JSON.parse(readFileSync(require.resolve(artifact), 'utf8'))
  const bytecode =
    typeof parsed === 'object' && parsed !== null && 'bytecode' in parsed ? parsed.bytecode : ''
  if (typeof bytecode !== 'string' || !isHex(bytecode) || bytecode.length < 4)
    throw new Error(`${artifact} holds no bytecode`)
  return bytecode
}

let artifacts: { factory: Hex; pool: Hex; quoter: Hex; positionManager: Hex; router: Hex } | undefined

/** The creation codes, read once per process. */
export function bytecodes(): NonNullable<typeof artifacts> {
  artifacts ??= {
    factory: bytecodeOf('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
    pool: bytecodeOf('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
    quoter: bytecodeOf('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json'),
    positionManager: bytecodeOf(
      '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
    ),
    router: bytecodeOf(
      '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
    ),
  }
  return artifacts
}

export const factoryAbi = parseAbi([
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
  'function feeAmountTickSpacing(uint24 fee) view returns (int24)',
])

export const quoterAbi = parseAbi([
  'constructor(address factory, address WETH9)',
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
])

export const positionManagerAbi = parseAbi([
  'constructor(address factory, address WETH9, address tokenDescriptor)',
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
])

export const routerAbi = parseAbi([
  'constructor(address factoryV2, address factoryV3, address positionManager, address WETH9)',
  'function factory() view returns (address)',
  'function factoryV2() view returns (address)',
  'function WETH9() view returns (address)',
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
])

export const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
])

export const wethAbi = parseAbi([
  'function deposit() payable',
  'function approve(address, uint256) returns (bool)',
])
