/**
 * Uniswap's own deployments on the mainnets the product swaps on, so a deployment whose configuration lists
 * one of these chains (an RPC URL and its tokens) swaps there with no `swaps` block. v2: the factory and
 * Router02 with the wrapped native currency Router02 was deployed with; v3: the factory, QuoterV2 and
 * SwapRouter02. `Canonical.test.ts` checks every address against what Uniswap publishes (`@uniswap/sdk-core`
 * and its deployment pages).
 */
import type * as UniswapV2 from './UniswapV2.ts'
import type * as UniswapV3 from './UniswapV3.ts'

export type Deployment = { uniswapV2: UniswapV2.Contracts; uniswapV3: UniswapV3.Contracts }

/** Where Ethereum, Arbitrum, Optimism and Polygon share an address (CREATE from one deployer, same nonce). */
const v3Factory = '0x1F98431c8aD98523631AE4a59f267346ea31F984'
const quoterV2 = '0x61fFE014bA17989E743c5F6cB21bF9697530B21e'
const swapRouter02 = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45'
/** The OP Stack's predeployed WETH, on Optimism and Base. */
const opStackWeth = '0x4200000000000000000000000000000000000006'

/** By CAIP-2 chain id. */
export const deployments: Readonly<Record<string, Deployment>> = {
  // Ethereum
  'eip155:1': {
    uniswapV2: {
      factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
      router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
      weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    },
    uniswapV3: {
      factory: v3Factory,
      quoter: quoterV2,
      router: swapRouter02,
      weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    },
  },
  // Optimism
  'eip155:10': {
    uniswapV2: {
      factory: '0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf',
      router: '0x4A7b5Da61326A6379179b40d00F57E5bbDC962c2',
      weth: opStackWeth,
    },
    uniswapV3: { factory: v3Factory, quoter: quoterV2, router: swapRouter02, weth: opStackWeth },
  },
  // Polygon: the wrapped native currency is WPOL (formerly WMATIC).
  'eip155:137': {
    uniswapV2: {
      factory: '0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C',
      router: '0xedf6066a2b290C185783862C7F4776A2C8077AD1',
      weth: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
    },
    uniswapV3: {
      factory: v3Factory,
      quoter: quoterV2,
      router: swapRouter02,
      weth: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
    },
  },
  // Base: Uniswap deployed v3 there from other keys, at addresses of its own.
  'eip155:8453': {
    uniswapV2: {
      factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
      router: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
      weth: opStackWeth,
    },
    uniswapV3: {
      factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
      quoter: '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
      router: '0x2626664c2603336E57B271c5C0b26F421741e481',
      weth: opStackWeth,
    },
  },
  // Arbitrum One
  'eip155:42161': {
    uniswapV2: {
      factory: '0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9',
      router: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
      weth: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
    },
    uniswapV3: {
      factory: v3Factory,
      quoter: quoterV2,
      router: swapRouter02,
      weth: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
    },
  },
}
