/**
 * The embedded wallet's requests waiting for the visitor: ApproveTransaction shows the first, and each is
 * answered in turn (the product's transaction stack, docs/behaviour.md §4). The modal opens for a request that finds it closed and closes
 * again once the last is answered; otherwise the view is pushed and popped. Leaving the view or closing the
 * modal rejects everything that waits (4001), a request still being previewed too; a disallowed method shows
 * 'Action not allowed' 300 ms after the modal opens for it, then rejects (4200).
 */
import { type Caip, Errors, Methods, type Request } from '@airlock/bridge-protocol'
import type { Kernel } from '../../core/Feature.ts'
import type { Approval, Description } from './Describe.ts'
import { approveView } from './views.ts'
import { viewTexts } from './viewTexts.ts'

/** docs/behaviour.md §4: a disallowed request shows its error 300 ms after the modal opens for it. */
const notAllowedDelayMs = 300

export type Pending = {
  request: Request
  chainId: Caip.ChainId
  /** What ApproveTransaction shows of it, worked out once (`Describe.ts` loads with the first request). */
  description: Description
  resolve(value: unknown): void
  reject(error: unknown): void
}

/**
 * @example
 * const approvals = Approvals.create(kernel, (pending) => sign(wallet, pending.request, pending.chainId, rpc))
 * connector.request = (c, request) => approvals.ask(request, c.chainId)
 */
export function create(
  kernel: Pick<Kernel, 'router' | 'changed' | 'origin' | 'configured' | 'snackbar' | 'transacted' | 'timers'>,
  sign: (pending: Pending) => Promise<unknown>,
  /** What the chain adds to a request's preview (a transaction's simulated balance changes), if anything. */
  enrich: (
    request: Request,
    chainId: Caip.ChainId,
    description: Description,
  ) => Promise<Description> = async (_request, _chainId, description) => description,
) {
  const queue: Pending[] = []
  /**
   * Requests whose preview is still being worked out (a simulation may take 3 s): not shown yet, but waiting
   * all the same, so what rejects the queue rejects them too, before they could open the modal again.
   */
  const previewing = new Set<(error: unknown) => void>()
  let busy = false
  let openedForIt = false

  /** Shows the first request: the modal opens for it, or the view is pushed over what the visitor sees. */
  function show() {
    if (kernel.router.view() === approveView) return
    openedForIt = !kernel.router.isOpen()
    kernel.router.send(
      openedForIt ? { type: 'OPEN', view: approveView } : { type: 'PUSH', view: approveView },
    )
  }

  /**
   * `answered` was answered: it leaves the queue (where it may no longer be, left by the visitor while it was
   * being signed), the next one shows, or the modal goes back to where it was.
   */
  function next(answered: Pending) {
    const at = queue.indexOf(answered)
    if (at >= 0) queue.splice(at, 1)
    busy = false
    if (queue.length > 0) show()
    else if (kernel.router.view() === approveView)
      kernel.router.send(openedForIt ? { type: 'CLOSE', force: true } : { type: 'BACK' })
    kernel.changed()
  }

  /**
   * The visitor left the view or closed the modal: nothing that waited is signed. A request already approved
   * and being signed is not taken back: it may be on its way to the chain, and its answer says what happened.
   */
  const rejectAll = (error: unknown) => {
    for (const reject of previewing) reject(error)
    previewing.clear()
    const signing = busy ? queue[0] : undefined
    for (const pending of queue.splice(0)) if (pending !== signing) pending.reject(error)
    if (signing) queue.push(signing)
  }

  return {
    /** Resolves with the request's result once the visitor approved and it was signed. */
    ask(request: Request, chainId: Caip.ChainId): Promise<unknown> {
      return new Promise((resolve, reject) => {
        previewing.add(reject)
        const preview = import('./Describe.ts').then(({ describe }) =>
          enrich(request, chainId, describe(request, kernel.configured(chainId))),
        )
        preview.then(
          (description) => {
            // Rejected while it was being previewed: it never shows.
            if (!previewing.delete(reject)) return
            queue.push({ request, chainId, description, resolve, reject })
            if (queue.length === 1) show()
            kernel.changed()
          },
          (error: unknown) => {
            if (previewing.delete(reject)) reject(error)
          },
        )
      })
    },
    notAllowed(): Promise<never> {
      console.error(Methods.notAllowedLog)
      if (!kernel.router.isOpen()) kernel.router.send({ type: 'OPEN' })
      return new Promise((_, reject) =>
        kernel.timers.setTimeout(() => {
          kernel.snackbar.show('error', Methods.notAllowed)
          reject(new Errors.UnsupportedMethodError(Methods.notAllowed))
        }, notAllowedDelayMs),
      )
    },
    /** What ApproveTransaction shows. */
    slice(): Approval | undefined {
      const head = queue[0]
      return (
        head && {
          origin: kernel.origin() ?? '',
          description: head.description,
          busy,
          pending: queue.length,
        }
      )
    },
    async approve() {
      const head = queue[0]
      if (!head || busy) return
      busy = true
      kernel.changed()
      try {
        head.resolve(await sign(head))
        if (Methods.isTransaction(head.request.method)) kernel.transacted(head.request.namespace)
      } catch (error) {
        // docs/behaviour.md §4: on error the request fails and the stack moves on; the visitor is told what the chain said.
        head.reject(error)
        kernel.snackbar.show('error', Errors.messageOf(error, viewTexts.account.unexpected))
      }
      next(head)
    },
    reject() {
      const head = queue[0]
      if (!head || busy) return
      head.reject(new Errors.UserRejectedRequestError())
      next(head)
    },
    rejectAll,
  }
}
