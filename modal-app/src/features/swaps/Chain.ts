/**
 * The chain as a swap needs it, through the API's JSON-RPC relay only (never an RPC URL the host page gave:
 * a node of the page's choosing could show a simulation that is not what gets signed): what the approval
 * and the swap will do to the account (`eth_simulateV1`, transfers traced, both in one simulated block, so
 * the swap runs on the allowance the approval gives), and whether a sent transaction was mined.
 */

import type { SwapTransaction } from '@airlock/api/contract'
import { decodeErrorResult, type Hex } from 'viem'
import type { Timers } from '../../core/Snackbar.ts'
import * as RelayRpc from '../../shared/RelayRpc.ts'
import { RpcError } from '../../shared/RelayRpc.ts'
import { swapTexts } from './texts.ts'

/** ERC-7528's address for the native currency, where `traceTransfers` says ETH moved. */
const nativeAddress = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
// keccak256('Transfer(address,address,uint256)')
const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** How often a sent transaction's receipt is asked for, and for how long at most. */
const receiptPollMs = 500
const receiptWaitMs = 180_000

/** What the simulation says the account gains (+) or loses (−) per token, the native one as `0xeeee…`. */
export type Simulation =
  | { ok: true; changes: Map<string, bigint> }
  | { ok: false; reason: string }
  /** The node cannot simulate: the preview shows the quote's amounts. */
  | { ok: 'unknown' }

type Log = { address: string; topics: readonly Hex[]; data: Hex }
type SimulatedCall = { status: Hex; returnData?: Hex; logs?: Log[] }

export type ChainOptions = Omit<RelayRpc.RelayOptions, 'unreachable' | 'unexpected'> & { timers: Timers }

export function create(options: ChainOptions) {
  const rpc = RelayRpc.create({
    ...options,
    unreachable: swapTexts.unreachable,
    unexpected: swapTexts.unexpected,
  })

  return {
    rpc,
    /** Runs `transactions` one after another on the pending state and reads `account`'s balance changes. */
    async simulate(account: string, transactions: readonly SwapTransaction[]): Promise<Simulation> {
      const calls = transactions.map((tx) => ({
        from: tx.from,
        to: tx.to,
        input: tx.data,
        value: `0x${BigInt(tx.value).toString(16)}`,
      }))
      let answer: unknown
      try {
        answer = await rpc('eth_simulateV1', [
          { blockStateCalls: [{ calls }], traceTransfers: true },
          'pending',
        ])
      } catch (error) {
        // A node without the method (or a relay that refuses it) leaves the preview to the quote.
        if (error instanceof RpcError && error.code !== 3) return { ok: 'unknown' }
        throw error
      }
      const results = (answer as { calls?: SimulatedCall[] }[] | undefined)?.[0]?.calls
      if (!Array.isArray(results) || results.length !== calls.length) return { ok: 'unknown' }
      const failed = results.find((call) => call.status !== '0x1')
      if (failed) return { ok: false, reason: reasonOf(failed.returnData) }
      return {
        ok: true,
        changes: changesOf(
          account,
          results.flatMap((call) => call.logs ?? []),
        ),
      }
    },
    /** Waits until `hash` is mined: its status, `failed` for a revert. */
    async receipt(hash: string): Promise<'confirmed' | 'failed'> {
      for (let waited = 0; ; waited += receiptPollMs) {
        const receipt = (await rpc('eth_getTransactionReceipt', [hash]).catch(() => null)) as {
          status?: string
        } | null
        if (receipt?.status) return receipt.status === '0x1' ? 'confirmed' : 'failed'
        if (waited > receiptWaitMs) throw new RpcError(swapTexts.submitted, 0)
        await new Promise((resolve) => options.timers.setTimeout(() => resolve(undefined), receiptPollMs))
      }
    },
  }
}

export type Chain = ReturnType<typeof create>

/** The account's net change per token from the Transfer logs (ERC-20's, and the traced ETH ones). */
function changesOf(account: string, logs: readonly Log[]): Map<string, bigint> {
  const me = account.toLowerCase()
  const changes = new Map<string, bigint>()
  for (const log of logs) {
    if (log.topics[0] !== transferTopic || log.topics.length !== 3) continue
    const from = `0x${log.topics[1]?.slice(26)}`.toLowerCase()
    const to = `0x${log.topics[2]?.slice(26)}`.toLowerCase()
    if (from !== me && to !== me) continue
    const token = log.address.toLowerCase() === nativeAddress ? nativeAddress : log.address.toLowerCase()
    const value = BigInt(log.data === '0x' ? 0 : log.data)
    const delta = (to === me ? value : 0n) - (from === me ? value : 0n)
    changes.set(token, (changes.get(token) ?? 0n) + delta)
  }
  return changes
}

/** The revert's reason (`Error(string)`), else docs/behaviour.md §8's 'execution reverted'. */
function reasonOf(data: Hex | undefined): string {
  if (!data || data === '0x') return swapTexts.reverted
  try {
    const decoded = decodeErrorResult({ data })
    const [reason] = decoded.args ?? []
    return typeof reason === 'string' ? reason : swapTexts.reverted
  } catch {
    return swapTexts.reverted
  }
}
