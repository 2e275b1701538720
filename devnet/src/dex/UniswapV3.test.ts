import { keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import * as UniswapV3 from './UniswapV3.ts'

describe('the Uniswap v3 artifacts', () => {
  it("give pools the init-code hash the periphery hard-codes (0xe34f…8b54, mainnet's)", () => {
    const { pool } = UniswapV3.bytecodes()
    expect(keccak256(pool)).toBe(UniswapV3.poolInitCodeHash)
  })

  it("carry that pool's creation code inside the factory's, which deploys it with CREATE2", () => {
    const { factory, pool } = UniswapV3.bytecodes()
    expect(factory.includes(pool.slice(2))).toBe(true)
  })

  it('carry the hash in the code of QuoterV2, SwapRouter02 and the position manager, which find pools by it', () => {
    const { quoter, router, positionManager } = UniswapV3.bytecodes()
    for (const code of [quoter, router, positionManager])
      expect(code.includes(UniswapV3.poolInitCodeHash.slice(2))).toBe(true)
  })
})
