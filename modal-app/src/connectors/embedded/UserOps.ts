/**
 * A smart account's calls as one ERC-4337 user operation: prepared (nonce, gas from the bundler's
 * simulation, fees, the paymaster's sponsorship) before the visitor is asked, so an operation that would
 * revert says why before anything is signed; then signed (with the EIP-7702 authorization on a delegation's
 * first use) and handed to the bundler, and followed by its receipt for EIP-5792's status.
 */
import { Errors } from '@airlock/bridge-protocol'
import type * as Calls from '@airlock/bridge-protocol/Calls'
import type { Address, Hex } from 'viem'
import {
  formatUserOperationRequest,
  type PaymasterClient,
  type UserOperation,
} from 'viem/account-abstraction'
import type { Smart } from './SmartAccount.ts'

/** One call of an operation. */
export type Call = { to: Address; value?: bigint | undefined; data?: Hex | undefined }

/** An operation ready to sign, and who pays for it. */
export type Prepared = {
  operation: UserOperation<'0.8'>
  /** The paymaster pays its fee; otherwise the account does. */
  sponsored: boolean
  /** Why the paymaster would not pay, when the account pays instead. */
  refusal?: string | undefined
}

/** The bundler did not answer; nothing was sent (or, for a send, nothing is known to be). */
class BundlerUnreachableError extends Errors.InternalError {
  constructor(cause: unknown) {
    super('The bundler could not be reached: nothing was sent.', { cause })
  }
}

/** The bundler's simulation of the operation reverted: the chain would refuse it, so it is not signed. */
export class WouldRevertError extends Errors.BaseError {
  constructor(
    readonly reason: string,
    code: number,
    cause?: unknown,
  ) {
    super(code, `The operation would fail: ${reason}`, { cause })
  }
}

/** The paymaster refused to sponsor the operation, and the account cannot pay itself. */
export class PaymasterRefusedError extends Errors.BaseError {
  constructor(
    readonly reason: string,
    cause?: unknown,
  ) {
    super(-32603, `The paymaster refused to sponsor this operation: ${reason}`, { cause })
  }
}

/**
 * The operation for `calls`, sponsored when the paymaster (the API's for the project, or the dApp's ERC-7677
 * `paymasterUrl`) agrees; when it refuses, paid by the account if it holds the ETH, else refused.
 * @example const prepared = await UserOps.prepare(smart, [{ to, data }])
 */
export async function prepare(
  smart: Smart,
  calls: readonly Call[],
  paymasterUrl?: string,
): Promise<Prepared> {
  try {
    return { operation: await build(smart, calls, guarded(smart.paymaster(paymasterUrl))), sponsored: true }
  } catch (error) {
    if (!(error instanceof PaymasterRefusedError)) throw error
    const balance = await smart.client.getBalance({ address: smart.account.address })
    if (balance === 0n) throw error
    const operation = await build(smart, calls, undefined).catch((failure: unknown) => {
      // AA21: the account cannot pay the EntryPoint its prefund. The paymaster's refusal is the reason.
      throw failure instanceof WouldRevertError && failure.reason.includes('AA21') ? error : failure
    })
    const gas = operation.callGasLimit + operation.verificationGasLimit + operation.preVerificationGas
    if (balance < gas * operation.maxFeePerGas) throw error
    return { operation, sponsored: false, refusal: error.reason }
  }
}

/**
 * Signs `prepared` (and, on a 7702 account's first use, the delegation) and sends it; resolves with the
 * userOpHash once the bundler took it.
 */
export async function send(smart: Smart, prepared: Prepared): Promise<Hex> {
  let operation = prepared.operation
  // prepareUserOperation leaves a stub authorization (its signature fake) for the estimate; the real one
  // signs the same delegation, so the operation's hash does not change.
  if (operation.authorization) {
    const { address, chainId, nonce } = operation.authorization
    operation = {
      ...operation,
      authorization: await smart.owner.signAuthorization({ address, chainId, nonce }),
    }
  }
  const signature = await smart.account.signUserOperation(operation)
  try {
    return (await smart.bundler.request({
      method: 'eth_sendUserOperation',
      params: [formatUserOperationRequest({ ...operation, signature }), smart.account.entryPoint.address],
    })) as Hex
  } catch (error) {
    throw reasonOf(error)
  }
}

/** What EIP-5792 reports of an operation: pending while the bundler has no receipt. */
export type Outcome =
  | { status: 'pending' }
  | {
      status: 'success' | 'reverted'
      receipt: Calls.Receipt
    }

type WireReceipt = {
  success: boolean
  actualGasUsed: string
  logs: { address: string; data: string; topics: string[] }[]
  receipt: { transactionHash: string; blockHash: string; blockNumber: string }
} | null

/** The operation's outcome, its own logs only (not the bundle's other operations'). */
export async function outcome(smart: Smart, hash: Hex): Promise<Outcome> {
  let wire: WireReceipt
  try {
    wire = (await smart.bundler.request({
      method: 'eth_getUserOperationReceipt',
      params: [hash],
    })) as WireReceipt
  } catch (error) {
    throw reasonOf(error)
  }
  if (!wire) return { status: 'pending' }
  const { transactionHash, blockHash, blockNumber } = wire.receipt
  return {
    status: wire.success ? 'success' : 'reverted',
    receipt: {
      logs: wire.logs.map(({ address, data, topics }) => ({ address, data, topics })),
      status: wire.success ? '0x1' : '0x0',
      blockHash,
      blockNumber,
      gasUsed: wire.actualGasUsed,
      transactionHash,
    },
  }
}

async function build(smart: Smart, calls: readonly Call[], paymaster: PaymasterLike | undefined) {
  try {
    return (await smart.bundler.prepareUserOperation({
      account: smart.account,
      calls: calls.map(({ to, value, data }) => ({ to, value: value ?? 0n, data: data ?? '0x' })),
      ...(paymaster ? { paymaster } : {}),
    })) as UserOperation<'0.8'>
  } catch (error) {
    throw reasonOf(error)
  }
}

type PaymasterLike = Pick<PaymasterClient, 'getPaymasterData' | 'getPaymasterStubData'>

/** The paymaster's answers, its refusals told apart from the bundler's. */
function guarded(paymaster: PaymasterClient): PaymasterLike {
  const refused = (error: unknown): never => {
    throw new PaymasterRefusedError(detailOf(error), error)
  }
  return {
    getPaymasterStubData: (parameters) => paymaster.getPaymasterStubData(parameters).catch(refused),
    getPaymasterData: (parameters) => paymaster.getPaymasterData(parameters).catch(refused),
  }
}

/** An error of viem's clients as the dApp and the visitor should read it. */
function reasonOf(error: unknown): unknown {
  if (error instanceof Errors.BaseError) return error
  const chain = causes(error)
  if (chain.some((cause) => cause.name === 'HttpRequestError' || cause.name === 'TimeoutError'))
    return new BundlerUnreachableError(error)
  const coded = chain.find((cause) => typeof (cause as { code?: unknown }).code === 'number') as
    | (Error & { code: number })
    | undefined
  // ERC-7769's codes: -32500 rejected by the account's validation, -32521 reverted in execution.
  if (coded && (coded.code === -32521 || coded.code === -32500))
    return new WouldRevertError(detailOf(error), coded.code, error)
  return new Errors.InternalError(detailOf(error), { cause: error })
}

function causes(error: unknown): Error[] {
  const chain: Error[] = []
  let at: unknown = error
  while (at instanceof Error && chain.length < 8) {
    chain.push(at)
    at = at.cause
  }
  return chain
}

/** The deepest words a node or service gave, without viem's request dump. */
function detailOf(error: unknown): string {
  const chain = causes(error)
  for (const cause of chain.reverse()) {
    const details = (cause as { details?: unknown }).details
    if (typeof details === 'string' && details) return details
  }
  const first = chain[0] as (Error & { shortMessage?: string }) | undefined
  return first?.shortMessage ?? first?.message ?? String(error)
}
