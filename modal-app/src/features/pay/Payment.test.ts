import { decodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { baseUnits, fiat, shortfall, tokenOf, transaction } from './Payment.ts'

const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

describe('Payment', () => {
  it("reads the amount in the asset's base units and refuses more decimals than the asset has", () => {
    expect(baseUnits('0.05', 18)).toBe(50_000_000_000_000_000n)
    expect(baseUnits('.5', 6)).toBe(500_000n)
    expect(baseUnits('12', 6)).toBe(12_000_000n)
    expect(baseUnits('1.2300', 2)).toBe(123n)
    expect(baseUnits('1.234', 2)).toBeUndefined()
  })

  it('says what the balance lacks, nothing when it is enough', () => {
    expect(shortfall(10n, 3n)).toBe(7n)
    expect(shortfall(10n, 10n)).toBe(0n)
    expect(shortfall(10n, 11n)).toBe(0n)
  })

  it('pays the native currency with a plain transfer, a token with its ERC-20 transfer', () => {
    expect(tokenOf({ to, amount: '1', chain: 'eip155:1' })).toBeUndefined()
    expect(tokenOf({ to, amount: '1', chain: 'eip155:1', asset: 'native' })).toBeUndefined()
    expect(transaction({ from, to, amount: 10n ** 16n })).toEqual({ from, to, value: '0x2386f26fc10000' })
    const call = transaction({ from, to, amount: 5n, token })
    expect(call).toMatchObject({ from, to: token })
    expect(call.value).toBeUndefined()
    expect(decodeFunctionData({ abi: erc20Abi, data: call.data as `0x${string}` })).toEqual({
      functionName: 'transfer',
      args: [to, 5n],
    })
  })

  it('shows the worth in dollars only when the asset has a price', () => {
    expect(fiat(10n ** 17n, { symbol: 'ETH', decimals: 18, price: 3000 })).toBe('$300.00')
    expect(fiat(10n ** 17n, { symbol: 'ETH', decimals: 18 })).toBeUndefined()
  })
})
