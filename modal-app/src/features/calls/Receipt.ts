/**
 * The two ends of a call sent on its own: the `eth_sendTransaction` a batch's call becomes, and the node's
 * receipt in the shape `wallet_getCallsStatus` reports (EIP-5792 keeps only these fields).
 */
import type * as Calls from '@airlock/bridge-protocol/Calls'
import * as S from '@airlock/bridge-protocol/Shape'

/**
 * The transaction of one call, from the batch's account. Only the fields the dApp gave: the wallet picks
 * gas, fees and nonce, as for any dApp's transaction, and the host page checks it is one the dApp asked for.
 */
export function transactionOf(from: string, call: Calls.Call): Record<string, string> {
  return {
    from,
    ...(call.to ? { to: call.to } : {}),
    ...(call.data ? { data: call.data } : {}),
    ...(call.value ? { value: call.value } : {}),
  }
}

const hex = S.string(80, 3, /^0x[0-9a-fA-F]+$/)
const receipt = S.object({
  status: S.picklist(['0x1', '0x0']),
  blockHash: S.string(66, 66, /^0x[0-9a-fA-F]{64}$/),
  blockNumber: hex,
  gasUsed: hex,
  transactionHash: S.string(66, 66, /^0x[0-9a-fA-F]{64}$/),
  logs: S.array(
    S.object({
      address: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
      data: S.string(1 << 20, 2, /^0x[0-9a-fA-F]*$/),
      topics: S.array(S.string(66, 66, /^0x[0-9a-fA-F]{64}$/), 4),
    }),
    10_000,
  ),
})

/** The node's `eth_getTransactionReceipt` answer as EIP-5792 reports it; undefined while not mined. */
export function parse(raw: unknown): Calls.Receipt | undefined {
  if (raw === null || raw === undefined) return undefined
  const parsed = S.parse(receipt, raw)
  return parsed.ok ? parsed.value : undefined
}
