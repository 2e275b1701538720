import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type Address, type Hex, padHex } from 'viem'
import { describe, expect, it } from 'vitest'
import * as Gas from './Gas.ts'
import type * as UserOperation from './UserOperation.ts'

/** Alto's own reckoning of preVerificationGas (the bundler the dev stack runs), from its package's files. */
type AltoReckoning = (parameters: {
  userOp: Record<string, unknown>
  supportsEip7623: boolean
  config: Record<string, unknown>
}) => bigint
async function altoReckoning(): Promise<AltoReckoning> {
  const entry = createRequire(import.meta.url).resolve('@pimlico/alto')
  const module = await import(join(dirname(entry), 'rpc/estimation/preVerificationGasCalculator.js'))
  return module.calcExecutionPvgComponent
}

const sender: Address = '0x0B00C7Dc9D7c38AF5BD0ecda5fcfeB9Bb1DED634'
const factory: Address = '0x0081788D048C299127Bb76E3e63e782f4CD4f447'
const paymaster: UserOperation.PaymasterPart = {
  address: '0x21cd908275fb782867481Ee8cDbd699ed1492AAE',
  verification: 100_000n,
  postOp: 0n,
  data: `0x${'00'.repeat(64)}${'ab'.repeat(65)}`,
}
const op = (fields: Partial<UserOperation.UserOperation> = {}): UserOperation.UserOperation => ({
  sender,
  nonce: 33129182302556423117982484398080n,
  factory,
  factoryData: `0x5fbfb9cf${padHex(sender, { size: 32 }).slice(2)}${'00'.repeat(32)}`,
  callData: `0xb61d27f6${'00'.repeat(12)}${'12'.repeat(20)}${'00'.repeat(64)}${'00'.repeat(31)}60${'00'.repeat(32)}`,
  callGasLimit: 16_323n,
  verificationGasLimit: 249_735n,
  preVerificationGas: 51_990n,
  maxFeePerGas: 2_000_362_700n,
  maxPriorityFeePerGas: 2_000_000_000n,
  signature: `0x${'fe'.repeat(65)}`,
  authorization: undefined,
  ...fields,
})

/** The operation as Alto takes it (v0.7/v0.8 fields, nulls for none). */
const asAlto = (value: UserOperation.UserOperation) => ({
  ...value,
  factory: value.factory ?? null,
  factoryData: value.factoryData ?? null,
  paymaster: paymaster.address,
  paymasterVerificationGasLimit: paymaster.verification,
  paymasterPostOpGasLimit: paymaster.postOp,
  paymasterData: paymaster.data,
  eip7702Auth: value.authorization && { ...value.authorization },
})
const config = { v7CallGasLimitMultiplier: 100, v7PaymasterPostOpGasLimitMultiplier: 120 }

describe('Gas.preVerificationGas', () => {
  it('is what the bundler reckons an operation must cover, on a chain with EIP-7623 calldata pricing and without', async () => {
    const reckon = await altoReckoning()
    const delegation = {
      address: '0x07cF98f07755a367A6979B0140e49ab4098f952a' as Address,
      chainId: 31337,
      nonce: 0,
      r: `0x${'11'.repeat(32)}` as Hex,
      s: `0x${'22'.repeat(32)}` as Hex,
      yParity: 1,
    }
    const cases = [
      op(),
      op({ factory: undefined, factoryData: undefined, callData: `0x34fcd5be${'ab'.repeat(900)}` }),
      op({
        factory: '0x7702',
        factoryData: undefined,
        authorization: delegation,
        sender: delegation.address,
      }),
      op({ callData: `0x8dd7712f${'00'.repeat(64)}` }),
    ]
    for (const value of cases) {
      const ours = Gas.preVerificationGas(value, paymaster)
      expect(ours).toBe(reckon({ userOp: asAlto(value), supportsEip7623: true, config }))
      expect(ours).toBeGreaterThanOrEqual(reckon({ userOp: asAlto(value), supportsEip7623: false, config }))
    }
    // A signature not sent yet counts as an ECDSA one.
    expect(Gas.preVerificationGas(op({ signature: '0x' }), paymaster)).toBe(
      Gas.preVerificationGas(op(), paymaster),
    )
  }, 60_000)
})

describe('Gas.boundsOf', () => {
  const estimate = { preVerificationGas: 10n, verificationGasLimit: 250_000n, callGasLimit: 1_000_000n }
  it('allows the bundler’s estimate and a tenth more, or the EntryPoint’s 40,000 free unused gas when that is more', () => {
    const bounds = Gas.boundsOf(op(), paymaster, { ...estimate, callGasLimit: 16_323n })
    expect(bounds.callGasLimit).toBe(16_323n + Gas.penaltyThreshold)
    expect(bounds.verificationGasLimit).toBe(250_000n + Gas.penaltyThreshold)
    expect(Gas.boundsOf(op(), paymaster, estimate).callGasLimit).toBe(1_100_000n)
  })

  it('allows preVerificationGas up to its own reckoning and 15%, or a rollup bundler’s higher estimate', () => {
    const own = Gas.preVerificationGas(op(), paymaster)
    expect(Gas.boundsOf(op(), paymaster, estimate).preVerificationGas).toBe((own * 115n) / 100n)
    expect(
      Gas.boundsOf(op(), paymaster, { ...estimate, preVerificationGas: own * 3n }).preVerificationGas,
    ).toBe(own * 3n)
  })

  it('names the first limit over its bound', () => {
    const bounds = { preVerificationGas: 100n, verificationGasLimit: 200n, callGasLimit: 300n }
    const at = op({ preVerificationGas: 100n, verificationGasLimit: 200n, callGasLimit: 300n })
    expect(Gas.overOf(at, bounds)).toBeUndefined()
    expect(Gas.overOf({ ...at, callGasLimit: 301n }, bounds)).toEqual({
      field: 'callGasLimit',
      asked: 301n,
      limit: 300n,
    })
    expect(Gas.overOf({ ...at, preVerificationGas: 101n, callGasLimit: 301n }, bounds)?.field).toBe(
      'preVerificationGas',
    )
  })
})
