/**
 * What the chain adds to a request's preview before the visitor decides: for `eth_sendTransaction`, the
 * balance changes the node's simulation predicts (`internal/simulateEvm.ts`, loaded with the first one). A
 * node that cannot say within 3 s leaves the preview as it was: the simulation informs, it never blocks.
 */
import type { Caip, Request } from '@airlock/bridge-protocol'
import type { Kernel } from '../../core/Feature.ts'
import type { Description } from './Describe.ts'
import type { Rpc } from './Rpc.ts'

const waitMs = 3_000

type Options = {
  rpc: Rpc
  kernel: Pick<Kernel, 'timers' | 'configured'>
  /** The wallet's EVM address, once it is open. */
  from(): string | undefined
}

/** The `enrich` of `Approvals.create`. */
export function simulated({ rpc, kernel, from }: Options) {
  return async (request: Request, chainId: Caip.ChainId, description: Description): Promise<Description> => {
    const sender = from()
    const [tx] = Array.isArray(request.params) ? request.params : []
    if (request.method !== 'eth_sendTransaction' || !sender || !tx || typeof tx !== 'object')
      return description
    const fields = tx as { to?: string | null; value?: string; data?: string; input?: string }
    const { simulate } = await import('./internal/simulateEvm.ts')
    const timeout = new Promise<undefined>((resolve) =>
      kernel.timers.setTimeout(() => resolve(undefined), waitMs),
    )
    const call = { to: fields.to, value: fields.value, data: fields.data ?? fields.input }
    const outcome = await Promise.race([
      simulate(rpc, chainId, sender, call, kernel.configured(chainId)).catch(() => undefined),
      timeout,
    ])
    if (!outcome) return description
    return {
      ...description,
      rows: [...description.rows, ...outcome.rows],
      warnings: [...outcome.warnings, ...description.warnings],
    }
  }
}
