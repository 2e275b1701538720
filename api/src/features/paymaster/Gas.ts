/**
 * The gas a sponsored operation may ask for, checked by the API rather than taken from the client: the
 * EntryPoint charges `preVerificationGas` whole whatever it covered, and a tenth of the `callGasLimit` left
 * unused, both into the bundler's pocket, so a client that names them freely and bundles its own operation
 * is paid by the deposit for gas nobody burnt.
 *
 * - `preVerificationGas`: at most the API's own reckoning of what it must cover (the transaction's calldata
 *   for the packed operation and the EntryPoint's overheads, as bundlers reckon them) plus
 *   {@link preVerificationGasMarginPercent}; on a rollup whose bundler adds the L1 data fee, its estimate for
 *   the same operation when that is higher.
 * - `callGasLimit` and `verificationGasLimit`: at most the chain's bundler's estimate for the operation as
 *   the paymaster will sign it, plus a tenth or the EntryPoint's 40,000 gas penalty threshold, whichever is
 *   more (state may move between the client's estimate and this one; unused gas within the threshold costs
 *   nothing).
 */
import {
  type Address,
  BaseError,
  createClient,
  encodeAbiParameters,
  getAbiItem,
  type Hex,
  HttpRequestError,
  hexToBytes,
  http,
  maxUint128,
  maxUint256,
  size,
  slice,
  TimeoutError,
} from 'viem'
import { entryPoint08Abi, formatUserOperationRequest, toPackedUserOperation } from 'viem/account-abstraction'
import * as UserOperation from './UserOperation.ts'

/** Over the API's reckoning of `preVerificationGas`: Alto estimates 110% of the same reckoning. */
const preVerificationGasMarginPercent = 15n
/** The EntryPoint v0.8 charges nothing for unused call gas up to this (`PENALTY_GAS_THRESHOLD`). */
export const penaltyThreshold = 40_000n

/**
 * The overheads bundlers (Alto, for bundles of one) price a v0.7/v0.8 operation's share of a `handleOps`
 * transaction at, besides its calldata: the transaction's 21,000, the EntryPoint's fixed and per-operation
 * work, a cost per word of call data, and an EIP-7702 authorization's 25,000 (EIP-7702's PER_EMPTY_ACCOUNT_COST).
 */
const overhead = {
  transaction: 21_000n,
  bundle: 9_830n,
  perOperation: 7_260n,
  perCallDataWordMilli: 9_200n,
  authorization: 25_000n,
  executeUserOp: 1_610n,
  executeUserOpPerWordMilli: 8_200n,
} as const
/** `executeUserOp(PackedUserOperation, bytes32)`: an account that reads the whole operation (ERC-4337 IAccountExecute). */
const executeUserOpSelector = '0x8dd7712f'

/**
 * What `preVerificationGas` must cover for `op` signed with `paymaster`: calldata at 4 gas a token (a zero
 * byte one token, others four) or at EIP-7623's floor of 10 a token, whichever the chain would charge,
 * with the gas fields counted as full (their final values are not known when bundlers estimate) and the
 * signatures as the size they have.
 * @example
 * Gas.preVerificationGas(op, paymaster.stubPart) // 51990n
 */
export function preVerificationGas(
  op: UserOperation.UserOperation,
  paymaster: UserOperation.PaymasterPart,
): bigint {
  // A signature not sent yet is an ECDSA one: 65 bytes.
  const signatureSize = op.signature === '0x' ? 65 : size(op.signature)
  const full = UserOperation.asBundled(
    {
      ...op,
      callGasLimit: maxUint128,
      verificationGasLimit: maxUint128,
      preVerificationGas: maxUint256,
      maxFeePerGas: maxUint128,
      maxPriorityFeePerGas: maxUint128,
    },
    { ...paymaster, verification: maxUint128, postOp: maxUint128, data: filled(size(paymaster.data)) },
    filled(signatureSize),
  )
  const encoded = hexToBytes(encodeAbiParameters(packedOperation, [toPackedUserOperation(full)]))
  const tokens = encoded.reduce((sum, byte) => sum + (byte === 0 ? 1n : 4n), 0n)
  const words = BigInt(Math.ceil(encoded.length / 32))
  const callDataWords = BigInt(Math.ceil(size(op.callData) / 32))
  const readsWholeOperation = size(op.callData) >= 4 && slice(op.callData, 0, 4) === executeUserOpSelector
  const work =
    overhead.bundle +
    overhead.perOperation +
    (op.authorization ? overhead.authorization : 0n) +
    (readsWholeOperation
      ? overhead.executeUserOp + (overhead.executeUserOpPerWordMilli * words) / 1000n
      : (callDataWords * overhead.perCallDataWordMilli) / 1000n)
  // EIP-7623: a transaction pays at least 10 gas a token; the execution it pays for anyway (a tenth of the
  // call gas, as bundlers count it) comes off that floor.
  const executed = (op.callGasLimit + paymaster.postOp) / 10n
  const standard = 4n * tokens + work
  const floor = 10n * tokens - executed
  return overhead.transaction + (standard > floor ? standard : floor)
}

/** The bundler's estimate of an operation's gas. */
export type Estimate = { preVerificationGas: bigint; verificationGasLimit: bigint; callGasLimit: bigint }

/** The bundler would not estimate the operation (it reverts, or is malformed): its words. */
export class EstimateError extends Error {
  override name = 'EstimateError'
}

/** The bundler did not answer (unreachable, or not in time). */
export class BundlerUnavailableError extends Error {
  override name = 'BundlerUnavailableError'
}

/**
 * Asks the bundler at `bundlerUrl` to estimate `op` with `paymaster`'s part (the stub, whose signature
 * fails as bundlers expect of a stub).
 * @throws {EstimateError} when the bundler refuses to, with its reason
 * @throws {BundlerUnavailableError} when it does not answer
 */
export async function estimate(
  bundlerUrl: string,
  entryPoint: Address,
  op: UserOperation.UserOperation,
  paymaster: UserOperation.PaymasterPart,
  timeoutMs: number,
): Promise<Estimate> {
  const client = createClient({ transport: http(bundlerUrl, { retryCount: 0, timeout: timeoutMs }) })
  let answer: Record<keyof Estimate, Hex>
  try {
    answer = (await client.request({
      method: 'eth_estimateUserOperationGas',
      params: [formatUserOperationRequest(UserOperation.withPaymaster(op, paymaster)), entryPoint],
    } as never)) as Record<keyof Estimate, Hex>
  } catch (error) {
    const silent =
      !(error instanceof BaseError) ||
      error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) !== null
    if (silent) throw new BundlerUnavailableError('no answer', { cause: error })
    // The bundler's own words (a simulation's revert reason), without viem's request dump.
    throw new EstimateError(error.details || error.shortMessage, { cause: error })
  }
  return {
    preVerificationGas: BigInt(answer.preVerificationGas),
    verificationGasLimit: BigInt(answer.verificationGasLimit),
    callGasLimit: BigInt(answer.callGasLimit),
  }
}

/** The gas limits `op` may ask for, from the API's own reckoning and the bundler's estimate. */
export type Bounds = Estimate

export function boundsOf(
  op: UserOperation.UserOperation,
  paymaster: UserOperation.PaymasterPart,
  estimated: Estimate,
): Bounds {
  const own = (preVerificationGas(op, paymaster) * (100n + preVerificationGasMarginPercent)) / 100n
  return {
    preVerificationGas: own > estimated.preVerificationGas ? own : estimated.preVerificationGas,
    verificationGasLimit: withSlack(estimated.verificationGasLimit),
    callGasLimit: withSlack(estimated.callGasLimit),
  }
}

/** Which of `op`'s gas limits is over `bounds`, if one is. */
export function overOf(
  op: UserOperation.UserOperation,
  bounds: Bounds,
): { field: keyof Bounds; asked: bigint; limit: bigint } | undefined {
  for (const field of ['preVerificationGas', 'verificationGasLimit', 'callGasLimit'] as const)
    if (op[field] > bounds[field]) return { field, asked: op[field], limit: bounds[field] }
  return undefined
}

function withSlack(estimated: bigint): bigint {
  const tenth = estimated / 10n
  return estimated + (tenth > penaltyThreshold ? tenth : penaltyThreshold)
}

/** `size` bytes of 0xff: a field whose value is not known yet, counted at its dearest. */
function filled(size: number): Hex {
  return `0x${'ff'.repeat(size)}`
}

/** EntryPoint v0.8's PackedUserOperation, as `handleOps` carries it (its `getUserOpHash` takes one alone). */
const packedOperation = getAbiItem({ abi: entryPoint08Abi, name: 'getUserOpHash' }).inputs
