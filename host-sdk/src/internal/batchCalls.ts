/**
 * The calls of the dApp's own EIP-5792 batches, which the modal may send one by one on a page wallet that
 * cannot batch (its honest sequential fallback). Each call may be sent once, as `eth_sendTransaction` from
 * the batch's account (any connected one when the batch named none) with exactly the batch's target, data
 * and value, within 10 minutes of the dApp's request; the wallet still asks the person for each. A modal
 * gone bad can get no transaction signed that the dApp did not put in a batch.
 */
import type { Request } from '@airlock/bridge-protocol'

/** How long the calls of a batch stay sendable: a person approving them one by one needs a while. */
const lifetimeMs = 10 * 60_000

type Allowed = { key: string; from: string | undefined; until: number }

const text = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined)
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

/** A call's identity: target, data and value, however the hex is written. */
function keyOf(call: Record<string, unknown>): string | undefined {
  let value: bigint
  try {
    value = BigInt(typeof call.value === 'string' ? call.value : '0x0')
  } catch {
    return undefined
  }
  const data = text(call.data) ?? '0x'
  return `${text(call.to) ?? ''}|${data === '0x' ? '' : data}|${value}`
}

export function create(now: () => number = Date.now) {
  let allowed: Allowed[] = []
  return {
    /** The dApp sent a request: the calls of a `wallet_sendCalls` become sendable. */
    asked(request: Request) {
      if (request.namespace !== 'eip155' || request.method !== 'wallet_sendCalls') return
      const batch = record(Array.isArray(request.params) ? request.params[0] : undefined)
      const calls = Array.isArray(batch.calls) ? batch.calls : []
      const until = now() + lifetimeMs
      allowed = allowed.filter((entry) => entry.until > now())
      for (const call of calls) {
        const key = keyOf(record(call))
        if (key) allowed.push({ key, from: text(batch.from), until })
      }
    },
    /** Whether the modal's request is one of those calls; each is used up when sent. */
    take(request: Request): boolean {
      if (request.namespace !== 'eip155' || request.method !== 'eth_sendTransaction') return false
      const params = Array.isArray(request.params) ? request.params : []
      const tx = record(params[0])
      const extra = Object.keys(tx).filter((name) => !['from', 'to', 'data', 'value'].includes(name))
      if (params.length !== 1 || extra.length > 0) return false
      const key = keyOf(tx)
      const from = text(tx.from)
      const index = allowed.findIndex(
        (entry) => entry.key === key && entry.until > now() && (!entry.from || entry.from === from),
      )
      if (index < 0) return false
      allowed.splice(index, 1)
      return true
    },
  }
}
