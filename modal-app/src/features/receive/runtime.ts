/** Receive's actions: open the view (from Account), and tell the visitor whether the copy worked. */
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

/** The actions of the Receive view, and the Account view's way in. */
export type ReceiveUi = {
  showReceive(): void
  receiveCopied(ok: boolean): void
}

export function setup(kernel: Kernel): Runtime {
  const ui: ReceiveUi = {
    showReceive() {
      kernel.router.send({ type: 'PUSH', view: 'Receive' })
    },
    receiveCopied(ok) {
      if (ok) kernel.snackbar.show('success', texts.account.copied)
      else {
        kernel.snackbar.show('error', texts.account.copyFailed)
        kernel.shake()
      }
    },
  }
  return { ui }
}
