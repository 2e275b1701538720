/**
 * What the calls view shows of a batch, whoever runs it: each call's target, value and function selector,
 * where it is, and its transaction. A batch the modal runs call by call knows each call's state; a wallet's
 * batch is known only as a whole (its status, its receipts), so every call shows the batch's state.
 */
import * as Calls from '@airlock/bridge-protocol/Calls'
import type { Network } from '../../shared/Network.ts'
import type { Entry } from './runtime.ts'
import * as Sequential from './Sequential.ts'

type RowState = 'waiting' | 'asking' | 'pending' | 'confirmed' | 'reverted' | 'refused' | 'skipped'

export type Row = {
  to?: string | undefined
  /** In wei, decimal. */
  value?: bigint | undefined
  /** The first four bytes of the call's data, when it has any. */
  selector?: string | undefined
  state: RowState
  hash?: string | undefined
}

export type BatchView = {
  id: string
  origin?: string | undefined
  from: string
  network?: Network | undefined
  atomic: boolean
  /** EIP-5792's status code; undefined while a wallet has not said yet. */
  status?: number | undefined
  rows: Row[]
}

const describe = (call: Calls.Call) => ({
  to: call.to,
  value: call.value ? BigInt(call.value) : undefined,
  selector: call.data && call.data.length >= 10 ? call.data.slice(0, 10) : undefined,
})

/** The view of a batch on `network` (the configured network of its chain). */
export function viewOf(entry: Entry, network: Network | undefined): BatchView {
  if (entry.kind === 'sequential') {
    const { batch } = entry
    return {
      id: batch.id,
      origin: entry.origin,
      from: batch.from,
      network,
      atomic: false,
      status: Sequential.statusOf(batch).status,
      rows: batch.calls.map((call, index) => {
        const state = batch.states[index] ?? { state: 'waiting' }
        return {
          ...describe(call),
          state: state.state === 'sent' ? 'pending' : state.state,
          hash: 'hash' in state ? state.hash : undefined,
        }
      }),
    }
  }
  const { status } = entry
  const receipts = status?.receipts ?? []
  const state: RowState =
    status === undefined || status.status < 200
      ? 'pending'
      : status.status < 300
        ? 'confirmed'
        : status.status === Calls.status.reverted
          ? 'reverted'
          : 'refused'
  return {
    id: entry.id,
    origin: entry.origin,
    from: entry.from,
    network,
    atomic: status?.atomic ?? false,
    status: status?.status,
    rows: entry.calls.map((call, index) => ({
      ...describe(call),
      state,
      // An atomic batch is one transaction; otherwise a receipt per call, in order.
      hash: (receipts.length === entry.calls.length ? receipts[index] : receipts[0])?.transactionHash,
    })),
  }
}
