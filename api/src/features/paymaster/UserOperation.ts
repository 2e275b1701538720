/**
 * A user operation as ERC-7677's `pm_getPaymasterStubData` and `pm_getPaymasterData` take it: the unpacked
 * form of EntryPoint v0.7 and v0.8 (`sender`, `nonce`, `factory`/`factoryData`, `callData`, gas limits and
 * fees as hex quantities, the account's stub `signature` and an EIP-7702 `eip7702Auth` when it has them),
 * read once here into bigints; packed, hashed and priced as the EntryPoint does.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import type { Address, Hex, SignedAuthorization } from 'viem'
import {
  getUserOperationHash,
  type PackedUserOperation,
  toPackedUserOperation,
  type UserOperation as ViemUserOperation,
} from 'viem/account-abstraction'

const address = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/) as S.Shape<Address>
/** Bytes, at most what the API's 64 KiB body could carry. */
const bytes = S.string(128 * 1024, 2, /^0x(?:[0-9a-fA-F]{2})*$/) as S.Shape<Hex>
/** A quantity of at most 256 bits. */
const quantity = S.string(66, 3, /^0x[0-9a-fA-F]{1,64}$/)
/** An account's factory, or EIP-7702's marker for an EOA that delegates (viem writes `0x7702`). */
const factory = S.string(42, 6, /^0x(?:7702|7702[0]{36}|[0-9a-fA-F]{40})$/) as S.Shape<Hex>

/** EIP-7702's authorization as ERC-4337 bundlers take it beside the operation (`eip7702Auth`). */
const authorization = S.object({
  address,
  chainId: quantity,
  nonce: quantity,
  r: quantity,
  s: quantity,
  yParity: quantity,
})

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
  signature: S.optional(S.nullable(bytes)),
  eip7702Auth: S.optional(S.nullable(authorization)),
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
  /** The account's stub signature (bundlers estimate with it); '0x' when none was sent. */
  signature: Hex
  authorization: SignedAuthorization | undefined
}

/** The paymaster's part of an operation: its address, its own gas limits and its data. */
export type PaymasterPart = { address: Address; verification: bigint; postOp: bigint; data: Hex }

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
  const auth = op.eip7702Auth ?? undefined
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
      signature: op.signature ?? '0x',
      authorization: auth && {
        address: auth.address,
        chainId: Number(BigInt(auth.chainId)),
        nonce: Number(BigInt(auth.nonce)),
        r: auth.r as Hex,
        s: auth.s as Hex,
        yParity: Number(BigInt(auth.yParity)),
      },
    },
  }
}

/** Whether the operation delegates its EOA by EIP-7702 (the `0x7702` marker in place of a factory). */
export function delegates(op: UserOperation): boolean {
  return op.factory !== undefined && /^0x7702(0{36})?$/.test(op.factory)
}

/** All the gas the operation may use, the paymaster's included: what a sponsorship's cap bounds. */
export function totalGas(
  op: UserOperation,
  paymaster: Pick<PaymasterPart, 'verification' | 'postOp'>,
): bigint {
  return (
    op.callGasLimit +
    op.verificationGasLimit +
    op.preVerificationGas +
    paymaster.verification +
    paymaster.postOp
  )
}

/**
 * The most the operation can cost its paymaster: every gas limit at `maxFeePerGas`, the prefund the
 * EntryPoint takes from the deposit before it runs the operation.
 */
export function maxCost(
  op: UserOperation,
  paymaster: Pick<PaymasterPart, 'verification' | 'postOp'>,
): bigint {
  return totalGas(op, paymaster) * op.maxFeePerGas
}

/** The operation in viem's form, with `paymaster` and any EIP-7702 authorization: what bundlers are sent. */
export function withPaymaster(op: UserOperation, paymaster: PaymasterPart): ViemUserOperation<'0.8'> {
  return {
    sender: op.sender,
    nonce: op.nonce,
    ...(op.factory ? { factory: op.factory, factoryData: op.factoryData ?? '0x' } : {}),
    callData: op.callData,
    callGasLimit: op.callGasLimit,
    verificationGasLimit: op.verificationGasLimit,
    preVerificationGas: op.preVerificationGas,
    maxFeePerGas: op.maxFeePerGas,
    maxPriorityFeePerGas: op.maxPriorityFeePerGas,
    paymaster: paymaster.address,
    paymasterVerificationGasLimit: paymaster.verification,
    paymasterPostOpGasLimit: paymaster.postOp,
    paymasterData: paymaster.data,
    signature: op.signature,
    ...(op.authorization ? { authorization: op.authorization } : {}),
  }
}

/**
 * The operation as the EntryPoint (and a verifying paymaster's `getHash`) reads it, with `paymaster` and its
 * gas limits in `paymasterAndData`: packed as bundlers pack it (viem's packing, which Alto uses), so the hash
 * signed here is the one checked on chain.
 */
export function pack(op: UserOperation, paymaster: PaymasterPart): PackedUserOperation {
  return toPackedUserOperation(asBundled(op, paymaster, '0x'))
}

/**
 * The operation as bundlers put it in `handleOps`, with `signature`: an EIP-7702 delegation's `initCode` is
 * the marker alone (its authorization travels in the transaction), as the EntryPoint and `getHash` read it.
 */
export function asBundled(
  op: UserOperation,
  paymaster: PaymasterPart,
  signature: Hex,
): ViemUserOperation<'0.8'> {
  const { authorization: _, ...rest } = withPaymaster(op, paymaster)
  return { ...rest, signature }
}

/**
 * The operation's hash as the EntryPoint emits it in `UserOperationEvent` (v0.8: EIP-712, over every field
 * but the account's signature, an EIP-7702 delegation's contract in place of its marker).
 */
export function hash(op: UserOperation, paymaster: PaymasterPart, entryPoint: Address, chainId: number): Hex {
  return getUserOperationHash({
    userOperation: withPaymaster(op, paymaster),
    entryPointAddress: entryPoint,
    entryPointVersion: '0.8',
    chainId,
  })
}
