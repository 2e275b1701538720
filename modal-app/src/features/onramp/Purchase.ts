/**
 * One purchase after its checkout opened, followed until the tokens are on chain: the order read from the
 * API every 2 s (the provider's signed webhook moves it), the checkout window watched (closed before the
 * payment ended: the order stays open and can be resumed), and, once the provider says it delivered, the
 * delivery's receipt read from the chain itself, so "arrived" is the chain's word, not the provider's.
 */
import type * as Contract from '@airlock/api/contract'
import type { Timers } from '../../core/Snackbar.ts'
import type { Chain } from './Chain.ts'

/** How often the order and the checkout window are looked at. */
const pollMs = 2_000

export type Stage =
  /** The provider has not been paid yet; `windowOpen` while its checkout shows. */
  | { stage: 'paying'; windowOpen: boolean }
  /** Paid and sent: the delivery is on its way. */
  | { stage: 'delivering'; txHash: string }
  | { stage: 'arrived'; txHash: string; amount?: Contract.OnrampAmount | undefined }
  | { stage: 'failed'; reason: string }

export type TrackOptions = {
  orderId: string
  order(orderId: string): Promise<Contract.OnrampOrder>
  /** The chain the tokens go to. */
  chain: Chain | undefined
  timers: Timers
  /** The checkout window, while the modal holds one. */
  window(): { closed: boolean } | undefined
  /** The purchase moved on. */
  onStage(stage: Stage): void
  /** What a failed delivery says. */
  reverted: string
}

/**
 * Follows the order until it arrives or fails; `stop()` ends the following (the order itself goes on).
 * @example
 * const tracking = Purchase.track({ orderId, order: client.order, chain, timers, window: () => popup, onStage })
 */
export function track(options: TrackOptions): { stop(): void } {
  const abort = new AbortController()
  let last = ''
  const report = (stage: Stage) => {
    const key = JSON.stringify(stage)
    if (key === last || abort.signal.aborted) return
    last = key
    options.onStage(stage)
  }
  const sleep = () => new Promise((resolve) => options.timers.setTimeout(() => resolve(undefined), pollMs))

  async function run() {
    for (;;) {
      if (abort.signal.aborted) return
      // A read that fails (a slow API) changes nothing: the next one tells.
      const order = await options.order(options.orderId).catch(() => undefined)
      if (abort.signal.aborted) return
      if (order?.status === 'failed')
        return report({ stage: 'failed', reason: order.failureReason ?? 'The payment did not go through.' })
      if (order?.status === 'completed' && order.txHash) return deliver(order.txHash, order.purchaseAmount)
      const popup = options.window()
      report({ stage: 'paying', windowOpen: !!popup && !popup.closed })
      await sleep()
    }
  }

  async function deliver(txHash: string, amount: Contract.OnrampAmount | undefined) {
    report({ stage: 'delivering', txHash })
    if (!options.chain) return report({ stage: 'arrived', txHash, amount })
    const status = await options.chain.receipt(txHash, abort.signal).catch(() => undefined)
    if (status === 'confirmed') report({ stage: 'arrived', txHash, amount })
    else if (status === 'failed') report({ stage: 'failed', reason: options.reverted })
  }

  void run()
  return { stop: () => abort.abort() }
}
