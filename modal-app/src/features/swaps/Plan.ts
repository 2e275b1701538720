/**
 * A reviewed swap and the steps that carry it out. The review reads the allowance, has the API build the
 * approval (when the allowance is short: exactly the amount unless the visitor asks for unlimited) and the
 * swap at the visitor's slippage, and simulates both in one block, so what the visitor confirms is what the
 * chain is expected to do. Signing is the wallet's: the approval first, mined before the swap is asked for.
 */
import type * as Contract from '@airlock/api/contract'
import { formatUnits } from '../../shared/Amount.ts'
import type { Network } from '../../shared/Network.ts'
import { RpcError } from '../../shared/RelayRpc.ts'
import type { Chain, Simulation } from './Chain.ts'
import { type Client, SwapFailure } from './Client.ts'
import type { Ask, Token } from './Form.ts'
import { swapTexts } from './texts.ts'

export { formatUnits }

export type Transaction = Contract.SwapTransaction

export type Plan = {
  ask: Ask
  quote: Contract.SwapQuote
  /** Percent. */
  slippage: string
  network: Network
  /** The paying account's address, and as CAIP-10. */
  account: string
  accountId: string
  swap: Contract.BuildSwapAnswer
  /** The approval the swap needs first; absent when the allowance covers it (or the native currency pays). */
  approval?: { tx: Transaction; done: boolean } | undefined
  simulation: Simulation
}

export type MakeOptions = {
  client: Client
  chain: Chain
  network: Network
  account: string
  accountId: string
  ask: Ask
  quote: Contract.SwapQuote
  slippage: string
}

/** What a native balance keeps back for network fees when Max is pressed and no quote says more. */
const nativeReserveDivisor = 100n

/**
 * @example
 * const plan = await Plan.make({ client, chain, network, account, accountId, ask, quote, slippage: '1' })
 */
export async function make(options: MakeOptions): Promise<Plan> {
  const { client, chain, ask, quote, accountId } = options
  const paying = BigInt(quote.fromAmount)
  if (paying > ask.from.balance) throw new SwapFailure(swapTexts.insufficient(ask.from.symbol))
  // Approved, built and swapped where it was quoted: each venue has a router of its own.
  const venue = quote.venue.id
  const allowance = ask.from.native ? paying : await client.allowance(ask.from.id, accountId, venue)
  const short = allowance < paying
  const [approvalTx, swap] = await Promise.all([
    short
      ? client.buildApprove({
          userAddress: accountId,
          from: ask.from.id,
          to: ask.to.id,
          venue,
          amount: paying,
        })
      : undefined,
    client.buildSwap({
      amount: paying,
      from: ask.from.id,
      to: ask.to.id,
      userAddress: accountId,
      venue,
      slippage: options.slippage,
      // Until the approval is mined, estimating the swap would fail on the allowance.
      disableEstimate: short,
    }),
  ])
  if (ask.from.native && paying + BigInt(quote.fee) > ask.from.balance)
    throw new SwapFailure(swapTexts.insufficientGas(ask.from.symbol))
  const simulation = await chain.simulate(options.account, approvalTx ? [approvalTx, swap.tx] : [swap.tx])
  if (simulation.ok === false) throw new SwapFailure(swapTexts.simulationFailed(simulation.reason))
  return {
    ask,
    quote,
    slippage: options.slippage,
    network: options.network,
    account: options.account,
    accountId,
    swap,
    approval: approvalTx && { tx: approvalTx, done: false },
    simulation,
  }
}

export type StepOptions = {
  client: Client
  /** Sends a transaction through the connected wallet; resolves with its hash. */
  wallet(tx: Transaction): Promise<unknown>
}

/**
 * Has the wallet approve (the reviewed exact amount, or unlimited as the visitor chose) and waits until the
 * approval is mined; the plan then says it is done, so a retry after a refused swap does not approve twice.
 */
export async function approve(
  plan: Plan,
  options: StepOptions & { chain: Chain; unlimited: boolean },
): Promise<Plan> {
  if (!plan.approval || plan.approval.done) return plan
  const tx = options.unlimited
    ? await options.client.buildApprove({
        userAddress: plan.accountId,
        from: plan.ask.from.id,
        to: plan.ask.to.id,
        venue: plan.swap.venue.id,
      })
    : plan.approval.tx
  const hash = hashOf(await options.wallet(tx))
  if ((await options.chain.receipt(hash)) !== 'confirmed') throw new SwapFailure(swapTexts.approvalFailed)
  return { ...plan, approval: { tx, done: true } }
}

/** Has the wallet send the reviewed swap; its transaction hash. */
export async function send(plan: Plan, options: StepOptions): Promise<string> {
  return hashOf(await options.wallet(plan.swap.tx))
}

function hashOf(answer: unknown): string {
  if (typeof answer === 'string' && /^0x[0-9a-fA-F]{64}$/.test(answer)) return answer
  throw new SwapFailure(swapTexts.failed)
}

/** The API's transaction as `eth_sendTransaction` takes it: quantities in hex, the fee left to the wallet. */
export function walletTransaction(tx: Transaction) {
  const hex = (value: string) => `0x${BigInt(value).toString(16)}`
  return {
    from: tx.from,
    to: tx.to,
    data: tx.data,
    value: hex(tx.value),
    ...(tx.eip155.gas ? { gas: hex(tx.eip155.gas) } : {}),
  }
}

/** What the visitor is told when a step failed: docs/behaviour.md §8's 'Signature declined' for a refusal, else the cause. */
export function messageOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 4001) return swapTexts.declined
  if (error instanceof SwapFailure) return error.message
  // A wallet estimates before it signs: a swap the pools would now revert (the price moved past the
  // slippage, the deadline passed) is refused there, and nothing is sent.
  const message = (error as { message?: unknown } | undefined)?.message
  const reverted = typeof message === 'string' ? /execution reverted:?\s*([^\n]*)/i.exec(message) : null
  if (reverted) return swapTexts.wouldRevert(reverted[1]?.trim() ?? '')
  if (error instanceof RpcError) return error.message
  console.error('[airlock] The swap failed.', error)
  return swapTexts.failed
}

/** What Max pays with: the whole balance of a token, a native balance less what the network fee needs. */
export function spendable(token: Token, fee?: bigint): bigint {
  if (!token.native) return token.balance
  const reserve = fee && fee > 0n ? fee * 3n : 10n ** BigInt(token.decimals) / nativeReserveDivisor
  return token.balance > reserve ? token.balance - reserve : 0n
}
