import { createPublicClient, custom, parseGwei } from 'viem'
import { describe, expect, it } from 'vitest'
import { RpcError } from '../../internal/rpc.ts'
import * as Fees from './Fees.ts'

const fees = (
  fields: Partial<{ baseFeeMultiplier: number; maxPriorityFeePerGas: bigint; maxFeePerGas: bigint }>,
) => ({
  baseFeeMultiplier: 3,
  maxPriorityFeePerGas: parseGwei('2'),
  maxFeePerGas: undefined,
  ...fields,
})

describe('Fees.ceiling', () => {
  it('is the base fee times the multiplier plus the tip cap, under the absolute ceiling when there is one', () => {
    expect(Fees.ceiling(fees({}), parseGwei('10'))).toEqual({
      maxFeePerGas: parseGwei('32'),
      maxPriorityFeePerGas: parseGwei('2'),
    })
    expect(Fees.ceiling(fees({ baseFeeMultiplier: 1.25 }), 1_000n).maxFeePerGas).toBe(1_250n + parseGwei('2'))
    expect(Fees.ceiling(fees({ maxFeePerGas: parseGwei('20') }), parseGwei('10')).maxFeePerGas).toBe(
      parseGwei('20'),
    )
    expect(Fees.ceiling(fees({ maxFeePerGas: parseGwei('50') }), parseGwei('10')).maxFeePerGas).toBe(
      parseGwei('32'),
    )
  })

  it('names the tip over its cap first, then the fee over the ceiling', () => {
    const limit = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }
    expect(Fees.overOf({ maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, limit)).toBeUndefined()
    expect(Fees.overOf({ maxFeePerGas: 101n, maxPriorityFeePerGas: 11n }, limit)).toEqual({
      kind: 'tip',
      offered: 11n,
      limit: 10n,
    })
    expect(Fees.overOf({ maxFeePerGas: 101n, maxPriorityFeePerGas: 1n }, limit)).toEqual({
      kind: 'fee',
      offered: 101n,
      limit: 100n,
    })
  })
})

describe('Fees.baseFee', () => {
  /** A node whose latest block's base fee the test sets, counting the blocks it is asked for. */
  function node() {
    const state = { baseFee: 7n, asked: 0, down: false }
    const client = createPublicClient({
      transport: custom({
        async request({ method }) {
          if (method !== 'eth_getBlockByNumber') throw new Error(`unexpected ${method}`)
          state.asked++
          if (state.down) throw new Error('connection refused')
          return {
            number: '0x1',
            hash: `0x${'1'.repeat(64)}`,
            baseFeePerGas: `0x${state.baseFee.toString(16)}`,
          }
        },
      }),
    })
    return { state, client }
  }

  it('reads the node once in a while, not once a sponsorship', async () => {
    const { state, client } = node()
    let now = 0
    const baseFee = Fees.baseFee(client, 'eip155:1', () => now)
    expect(await Promise.all([baseFee(), baseFee()])).toEqual([7n, 7n])
    state.baseFee = 9n
    now = Fees.baseFeeTtlMs - 1
    expect(await baseFee()).toBe(7n)
    now = Fees.baseFeeTtlMs
    expect(await baseFee()).toBe(9n)
    expect(state.asked).toBe(2)
  })

  it('fails as the chain’s RPC, and asks again next time', async () => {
    const { state, client } = node()
    const baseFee = Fees.baseFee(client, 'eip155:1', () => 0)
    state.down = true
    await expect(baseFee()).rejects.toBeInstanceOf(RpcError)
    state.down = false
    expect(await baseFee()).toBe(7n)
  })
})
