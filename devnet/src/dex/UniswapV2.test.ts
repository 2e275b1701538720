import { keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import * as UniswapV2 from './UniswapV2.ts'

describe('the Uniswap v2 artifacts', () => {
  it("give pairs the init-code hash Router02 hard-codes (0x96e8…845f, mainnet's)", () => {
    const { pair } = UniswapV2.bytecodes()
    expect(UniswapV2.pairInitCodeHash).toBe(
      '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f',
    )
    expect(keccak256(pair)).toBe(UniswapV2.pairInitCodeHash)
  })

  it("carry that pair's creation code inside the factory's, which deploys it with CREATE2", () => {
    const { factory, pair } = UniswapV2.bytecodes()
    expect(factory.includes(pair.slice(2))).toBe(true)
  })

  it('carry the router with the hash in its code, and WETH9', () => {
    const { router, weth } = UniswapV2.bytecodes()
    // `UniswapV2Library.pairFor` pushes the hash as a constant.
    expect(router.includes(UniswapV2.pairInitCodeHash.slice(2))).toBe(true)
    expect(weth).toMatch(/^0x60[0-9a-f]{1000,}$/)
  })
})
