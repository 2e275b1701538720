/**
 * A user operation as ERC-7677's `pm_getPaymasterStubData` and `pm_getPaymasterData` take it: the unpacked
 * form of EntryPoint v0.7 and v0.8 (`sender`, `nonce`, `factory`/`factoryData`, `callData`, gas limits and
 * fees as hex quantities), read once here into bigints, and packed as the EntryPoint reads it.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import type { Address, Hex } from 'viem'
import { type PackedUserOperation, toPackedUserOperation } from 'viem/account-abstraction'

const address = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/) as S.Shape<Address>
/** Bytes, at most what the API's 64 KiB body could carry. */
const bytes = S.string(128 * 1024, 2, /^0x(?:[0-9a-fA-F]{2})*$/) as S.Shape<Hex>
/** A quantity of at most 256 bits. */
const quantity = S.string(66, 3, /^0x[0-9a-fA-F]{1,64}$/)
/** An account's factory, or EIP-7702's marker for an EOA that delegates (viem writes `0x7702`). */
const factory = S.string(42, 6, /^0x(?:7702|7702[0]{36}|[0-9a-fA-F]{40})$/) as S.Shape<Hex>

const shape = S.object({
  sender: address,
  nonce: quantity,
  factory: S.optional(S.nullable(factory)),
  factoryData: S.optional(S.nullable(bytes)),
  callData: bytes,
  callGasLimit: S.optional(quantity),
  verificationGasLimit: S.optional(quantity),
  preVerificationGas: S.optional(quantity),
  maxFeePerGas: S.optional(quantity),
  maxPriorityFeePerGas: S.optional(quantity),
  paymasterVerificationGasLimit: S.optional(S.nullable(quantity)),
  paymasterPostOpGasLimit: S.optional(S.nullable(quantity)),
})

/** The fields the paymaster reads; gas left out is 0 (a stub is asked for before gas is estimated). */
export type UserOperation = {
  sender: Address
  nonce: bigint
  factory: Hex | undefined
  factoryData: Hex | undefined
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymasterVerificationGasLimit: bigint | undefined
  paymasterPostOpGasLimit: bigint | undefined
}

/**
 * @example
 * const parsed = UserOperation.parse(params[0])
 * if (parsed.ok) parsed.value.sender
 */
export function parse(value: unknown): { ok: true; value: UserOperation } | { ok: false; message: string } {
  const parsed = S.parse((input) => shape(input, 'userOperation'), value)
  if (!parsed.ok) return parsed
  const op = parsed.value
  const gas = (hex: string | undefined) => (hex === undefined ? 0n : BigInt(hex))
  const optional = (hex: string | null | undefined) => (hex == null ? undefined : BigInt(hex))
  return {
    ok: true,
    value: {
      sender: op.sender,
      nonce: BigInt(op.nonce),
      factory: op.factory ?? undefined,
      factoryData: op.factoryData ?? undefined,
      callData: op.callData,
      callGasLimit: gas(op.callGasLimit),
      verificationGasLimit: gas(op.verificationGasLimit),
      preVerificationGas: gas(op.preVerificationGas),
      maxFeePerGas: gas(op.maxFeePerGas),
      maxPriorityFeePerGas: gas(op.maxPriorityFeePerGas),
      paymasterVerificationGasLimit: optional(op.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: optional(op.paymasterPostOpGasLimit),
    },
  }
}

/** All the gas the operation may use, the paymaster's included: what a sponsorship's cap bounds. */
export function totalGas(op: UserOperation, paymaster: { verification: bigint; postOp: bigint }): bigint {
  return (
    op.callGasLimit +
    op.verificationGasLimit +
    op.preVerificationGas +
    paymaster.verification +
    paymaster.postOp
  )
}

/**
 * The operation as the EntryPoint (and a verifying paymaster's `getHash`) reads it, with `paymaster` and its
 * gas limits in `paymasterAndData`: packed as bundlers pack it (viem's packing, which Alto uses), so the hash
 * signed here is the one checked on chain.
 */
export function pack(
  op: UserOperation,
  paymaster: { address: Address; verification: bigint; postOp: bigint; data: Hex },
): PackedUserOperation {
  return toPackedUserOperation({
    ...op,
    paymaster: paymaster.address,
    paymasterVerificationGasLimit: paymaster.verification,
    paymasterPostOpGasLimit: paymaster.postOp,
    paymasterData: paymaster.data,
    signature: '0x',
  })
}
