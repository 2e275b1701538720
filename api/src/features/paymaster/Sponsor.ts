/**
 * Whether the paymaster signs one operation, rule by rule, each refusal naming its rule (-32003): the
 * project's list of calls (`Calls.ts`), the price of gas tied to the chain's base fee (`Fees.ts`), its gas
 * cap, gas limits no more than the bundler's estimate and the API's own reckoning (`Gas.ts`), and last its
 * budgets, against which the signature is held at the most the operation may cost before it is given
 * (`Ledger.ts`). A stub (for estimating) is checked against the list and the fees it already names.
 */
import type { Address } from 'viem'
import type { Database } from '../../Database.ts'
import { messages as httpMessages } from '../../http/errors.ts'
import { RpcError } from '../../internal/rpc.ts'
import { messages as bundlerMessages } from '../bundler/routes.ts'
import * as Calls from './Calls.ts'
import * as Fees from './Fees.ts'
import * as Gas from './Gas.ts'
import * as Ledger from './Ledger.ts'
import { codes, messages } from './messages.ts'
import type * as Paymaster from './Paymaster.ts'
import type { Policy } from './Sponsorship.ts'
import * as UserOperation from './UserOperation.ts'

/** One chain's paymaster, as the route serves it. */
export type Chain = {
  /** CAIP-2. */
  chainId: string
  id: bigint
  paymaster: Paymaster.Paymaster
  baseFee: Fees.BaseFee
  bundlerUrl: string
  currency: { symbol: string; decimals: number }
}

export type Context = {
  db: Pick<Database, 'query' | 'transaction'>
  chain: Chain
  policy: Policy
  entryPoint: Address
  now: () => number
  /** How long the bundler's estimate is waited for. */
  timeoutMs: number
}

export type Refusal = { code: number; message: string }
/** What a call is answered: ERC-7677's result, or an error. */
export type Outcome = { result: unknown } | Refusal

const refused = (message: string): Refusal => ({ code: codes.refused, message })

/** `pm_getPaymasterStubData`: a stub to estimate with, once the list and the fees named allow the operation. */
export async function stub(context: Context, op: UserOperation.UserOperation): Promise<Outcome> {
  const refusal = await listedAndPriced(context, op)
  return refusal ?? { result: context.chain.paymaster.stub() }
}

/** `pm_getPaymasterData`: the signed sponsorship, once every rule allows it and its cost is held. */
export async function sign(context: Context, op: UserOperation.UserOperation): Promise<Outcome> {
  const { chain, policy } = context
  const { paymaster } = chain
  const listed = await listedAndPriced(context, op)
  if (listed) return listed
  const gas = UserOperation.totalGas(op, paymaster.stubPart)
  if (gas > policy.maxGas) return refused(messages.overCap(gas, policy.maxGas))
  const bounds = await boundsOf(context, op)
  if ('code' in bounds) return bounds
  const over = Gas.overOf(op, bounds)
  if (over?.field === 'preVerificationGas')
    return refused(messages.overPreVerificationGas(over.asked, over.limit))
  if (over) return refused(messages.overEstimate(over.field, over.asked, over.limit))
  const signed = await paymaster.sign(op)
  const maxCost = UserOperation.maxCost(op, signed.part)
  const overrun = await Ledger.reserve(
    context.db,
    {
      userOpHash: UserOperation.hash(op, signed.part, context.entryPoint, Number(chain.id)),
      chainId: chain.chainId,
      projectId: policy.projectId,
      sender: op.sender,
      nonce: op.nonce,
      day: Ledger.dayOf(context.now()),
      maxCost,
      validUntil: signed.validUntil,
    },
    policy.budget,
  )
  if (overrun)
    return refused(
      messages.overBudget(overrun.rule, maxCost, overrun.limit, overrun.committed, chain.currency),
    )
  return { result: signed.answer }
}

/** The list's refusal, or the fees': a stub without fees yet (0) is not priced. */
async function listedAndPriced(
  context: Context,
  op: UserOperation.UserOperation,
): Promise<Refusal | undefined> {
  const off = Calls.refusalOf(context.policy, op)
  if (off?.kind === 'unreadable') return refused(messages.unreadable)
  if (off?.kind === 'unreadableDeployment') return refused(messages.unreadableDeployment)
  if (off?.kind === 'deployment') return refused(messages.offListDeployment(off.to))
  if (off?.kind === 'call') return refused(messages.offList(off.to, off.selector))
  if (op.maxFeePerGas === 0n && op.maxPriorityFeePerGas === 0n) return undefined
  const over = Fees.overOf(op, Fees.ceiling(context.policy.fees, await context.chain.baseFee()))
  if (over?.kind === 'tip') return refused(messages.overTip(over.offered, over.limit))
  if (over) return refused(messages.overFee(over.offered, over.limit))
  return undefined
}

/** The gas `op` may ask for, from the bundler's estimate of it with the paymaster's stub; or why not. */
async function boundsOf(context: Context, op: UserOperation.UserOperation): Promise<Gas.Bounds | Refusal> {
  const { chain } = context
  try {
    const estimated = await Gas.estimate(
      chain.bundlerUrl,
      context.entryPoint,
      op,
      chain.paymaster.stubPart,
      context.timeoutMs,
    )
    return Gas.boundsOf(op, chain.paymaster.stubPart, estimated)
  } catch (error) {
    if (error instanceof Gas.EstimateError) return refused(messages.unestimated(error.message))
    if (error instanceof Gas.BundlerUnavailableError)
      return { code: codes.internal, message: bundlerMessages.unavailable(chain.chainId) }
    throw error
  }
}

/** The answer to a failure no rule foresaw: the chain's RPC down, or a fault of ours. */
export function failure(chainId: string, error: unknown): Refusal {
  if (error instanceof RpcError)
    return { code: codes.internal, message: httpMessages.rpcUnavailable(chainId) }
  console.error('[airlock-api] paymaster', chainId, error)
  return { code: codes.internal, message: httpMessages.internal }
}
