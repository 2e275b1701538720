import { createRequire } from 'node:module'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import * as Canonical from './Canonical.ts'

/**
 * Uniswap's own published addresses: `@uniswap/sdk-core` (its CommonJS build: the ESM one imports without
 * file extensions, which Node refuses). Its `quoterAddress` is QuoterV1 on the chains where QuoterV2 came later,
 * so QuoterV2 is checked against Uniswap's deployment pages instead:
 * https://docs.uniswap.org/contracts/v3/reference/deployments/ethereum-deployments (and the Arbitrum,
 * Optimism, Polygon and Base pages beside it), which list QuoterV2 0x61fF…B21e on the first four and
 * 0x3d4e…B76a on Base.
 */
const sdk = createRequire(import.meta.url)('@uniswap/sdk-core') as {
  V2_FACTORY_ADDRESSES: Record<number, string>
  V2_ROUTER_ADDRESSES: Record<number, string>
  CHAIN_TO_ADDRESSES_MAP: Record<number, { v3CoreFactoryAddress: string; quoterAddress: string }>
  SWAP_ROUTER_02_ADDRESSES: (chainId: number) => string
  WETH9: Record<number, { address: string }>
}
const quoterV2FromDocs: Record<number, string> = {
  1: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
  10: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
  137: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
  8453: '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
  42161: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
}
const same = (a: string | undefined) => getAddress(a ?? '0x0000000000000000000000000000000000000000')

describe('the built-in table of Uniswap deployments', () => {
  it('covers Ethereum, Optimism, Polygon, Base and Arbitrum', () => {
    expect(Object.keys(Canonical.deployments).sort()).toEqual(
      ['eip155:1', 'eip155:10', 'eip155:137', 'eip155:42161', 'eip155:8453'].sort(),
    )
  })

  it.each([1, 10, 137, 8453, 42161])('holds on chain %i the addresses Uniswap publishes', (chainId) => {
    const deployment = Canonical.deployments[`eip155:${chainId}`]
    const weth = sdk.WETH9[chainId]?.address
    expect(same(deployment?.uniswapV2.factory)).toBe(same(sdk.V2_FACTORY_ADDRESSES[chainId]))
    expect(same(deployment?.uniswapV2.router)).toBe(same(sdk.V2_ROUTER_ADDRESSES[chainId]))
    expect(same(deployment?.uniswapV2.weth)).toBe(same(weth))
    expect(same(deployment?.uniswapV3.factory)).toBe(
      same(sdk.CHAIN_TO_ADDRESSES_MAP[chainId]?.v3CoreFactoryAddress),
    )
    expect(same(deployment?.uniswapV3.router)).toBe(same(sdk.SWAP_ROUTER_02_ADDRESSES(chainId)))
    expect(same(deployment?.uniswapV3.weth)).toBe(same(weth))
    expect(same(deployment?.uniswapV3.quoter)).toBe(same(quoterV2FromDocs[chainId]))
  })
})
