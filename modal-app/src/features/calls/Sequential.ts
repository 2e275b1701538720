/**
 * EIP-5792's honest fallback for a wallet that cannot batch (a plain EOA): the calls go one by one as
 * `eth_sendTransaction`, each approved in the wallet as usual, each waited for on chain before the next is
 * asked (a transfer after an approval must see the approval). The batch is never atomic and says so:
 * `atomic: false`, and a person who declines a later call leaves the earlier ones on chain (600).
 *
 * Pure transitions, driven by {@link run}: given a batch and an event, the next batch.
 */
import * as Calls from '@airlock/bridge-protocol/Calls'

/** Where one call is. */
type CallState =
  | { state: 'waiting' }
  | { state: 'asking' }
  | { state: 'sent'; hash: string }
  | { state: 'confirmed'; hash: string; receipt: Calls.Receipt }
  | { state: 'reverted'; hash: string; receipt: Calls.Receipt }
  /** The person declined it in the wallet, or the wallet refused it. */
  | { state: 'refused'; error: { code: number; message: string } }
  /** Never asked: a call before it reverted or was refused. */
  | { state: 'skipped' }

export type Batch = {
  id: string
  /** As the dApp sent it (`0x7a69`). */
  chainId: string
  from: string
  calls: readonly Calls.Call[]
  states: readonly CallState[]
}

type Event =
  | { type: 'asking'; index: number }
  | { type: 'sent'; index: number; hash: string }
  | { type: 'mined'; index: number; receipt: Calls.Receipt }
  | { type: 'refused'; index: number; error: { code: number; message: string } }

/** A new batch, every call waiting. */
export function create(input: Omit<Batch, 'states'>): Batch {
  return { ...input, states: input.calls.map(() => ({ state: 'waiting' })) }
}

/** The batch after an event; a call that fails ends the batch: the calls after it are skipped. */
export function reduce(batch: Batch, event: Event): Batch {
  const states = [...batch.states]
  const current = states[event.index]
  if (!current) return batch
  switch (event.type) {
    case 'asking':
      if (current.state !== 'waiting') return batch
      states[event.index] = { state: 'asking' }
      break
    case 'sent':
      if (current.state !== 'asking') return batch
      states[event.index] = { state: 'sent', hash: event.hash }
      break
    case 'mined': {
      if (current.state !== 'sent') return batch
      const ok = event.receipt.status === '0x1'
      states[event.index] = {
        state: ok ? 'confirmed' : 'reverted',
        hash: current.hash,
        receipt: event.receipt,
      }
      if (!ok) skipAfter(states, event.index)
      break
    }
    case 'refused':
      if (current.state !== 'asking') return batch
      states[event.index] = { state: 'refused', error: event.error }
      skipAfter(states, event.index)
      break
  }
  return { ...batch, states }
}

function skipAfter(states: CallState[], index: number) {
  for (let i = index + 1; i < states.length; i++) states[i] = { state: 'skipped' }
}

/** The next call to ask for, once the one before it is confirmed; undefined when none is due. */
function next(batch: Batch): number | undefined {
  const index = batch.states.findIndex((call) => call.state !== 'confirmed')
  return batch.states[index]?.state === 'waiting' ? index : undefined
}

/** Whether nothing more will happen to the batch. */
export function isSettled(batch: Batch): boolean {
  return batch.states.every((call) => ['confirmed', 'reverted', 'refused', 'skipped'].includes(call.state))
}

/**
 * The batch as `wallet_getCallsStatus` reports it: 100 while a call is still to come, 200 when all landed
 * and succeeded, 500 when one reverted (the calls before it stay on chain: EIP-5792's chain-rules failure),
 * 600 when a later call was refused after earlier ones landed, 400 when nothing reached the chain.
 */
export function statusOf(batch: Batch): Calls.Status {
  const receipts = batch.states.flatMap((call) => ('receipt' in call ? [call.receipt] : []))
  const code = !isSettled(batch)
    ? Calls.status.pending
    : batch.states.some((call) => call.state === 'reverted')
      ? Calls.status.reverted
      : batch.states.every((call) => call.state === 'confirmed')
        ? Calls.status.confirmed
        : receipts.length > 0
          ? Calls.status.partial
          : Calls.status.offchainFailure
  return {
    version: Calls.version,
    id: batch.id,
    chainId: batch.chainId,
    status: code,
    atomic: false,
    ...(receipts.length > 0 ? { receipts } : {}),
  }
}

/** What {@link run} asks of the world. */
export type Driver = {
  /** Asks the wallet to send one call; resolves with the transaction's hash. */
  send(call: Calls.Call, batch: Batch): Promise<string>
  /** The transaction's receipt once mined; undefined while it is not. */
  receipt(hash: string): Promise<Calls.Receipt | undefined>
  /** Waits between receipt polls. */
  sleep(ms: number): Promise<void>
  /** The batch changed. */
  changed(batch: Batch): void
}

/** How long between two looks for a receipt; a devnet mines at once, a real chain every few seconds. */
const pollMs = 500

/**
 * Runs the batch to its end. `first` settles once the first call is sent (with the batch) or refused
 * (with the wallet's error): `wallet_sendCalls` answers then, so a visitor who declines outright gives the
 * dApp the usual 4001 rather than an id whose batch did nothing.
 */
export function run(start: Batch, driver: Driver): { first: Promise<Batch>; done: Promise<Batch> } {
  let batch = start
  let firstSettled = false
  let resolveFirst: (batch: Batch) => void = () => {}
  let rejectFirst: (error: unknown) => void = () => {}
  const first = new Promise<Batch>((resolve, reject) => {
    resolveFirst = resolve
    rejectFirst = reject
  })
  const apply = (event: Event) => {
    batch = reduce(batch, event)
    driver.changed(batch)
  }
  const done = (async () => {
    for (let index = next(batch); index !== undefined; index = next(batch)) {
      const call = batch.calls[index] as Calls.Call
      apply({ type: 'asking', index })
      let hash: string
      try {
        hash = await driver.send(call, batch)
      } catch (error) {
        apply({ type: 'refused', index, error: wireOf(error) })
        if (!firstSettled) rejectFirst(error)
        firstSettled = true
        break
      }
      apply({ type: 'sent', index, hash })
      if (!firstSettled) resolveFirst(batch)
      firstSettled = true
      let receipt = await driver.receipt(hash).catch(() => undefined)
      while (!receipt) {
        await driver.sleep(pollMs)
        receipt = await driver.receipt(hash).catch(() => undefined)
      }
      apply({ type: 'mined', index, receipt })
    }
    return batch
  })()
  return { first, done }
}

function wireOf(error: unknown): { code: number; message: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return {
    code: typeof code === 'number' ? code : -32603,
    message: typeof message === 'string' ? message : 'The wallet refused the call.',
  }
}
