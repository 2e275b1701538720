/**
 * A WalletConnect session where the browser lets the frame keep nothing (third-party storage blocked, no
 * storage access granted): its keys are secrets the host page may not keep, so a window of the modal
 * origin keeps them, in its first-party storage, under the page the frame serves. Keeping and restoring
 * each open that window in the visitor's click; it closes by itself. Only the fact that a session is kept
 * goes to the host page.
 */
import { Caip } from '@airlock/bridge-protocol'
import * as Keeper from '../../core/approval/Keep.ts'
import type { Kernel } from '../../core/Feature.ts'
import * as FrameStorage from '../../core/FrameStorage.ts'
import { texts } from '../../shared/texts.ts'
import type { Flow } from './Flow.ts'
import * as SignClientStorage from './SignClientStorage.ts'
import * as WcWallet from './wallet.ts'

/**
 * `offer`: a live session this frame cannot keep; `kept`: a window keeps it; `restore`: a window keeps one
 * from an earlier page load, which a click can bring back.
 */
export type Keeping = 'none' | 'offer' | 'kept' | 'restore'

export function create(kernel: Kernel, flow: () => Promise<Flow>, started: () => boolean) {
  let keeping: Keeping = 'none'
  const set = (next: Keeping) => {
    if (next === keeping) return
    keeping = next
    kernel.changed()
  }
  const connected = () =>
    Caip.namespaces.some((namespace) => WcWallet.is(kernel.connectionOf(namespace)?.wallet ?? { id: '' }))
  const failed = (message: string) => {
    kernel.snackbar.show('error', message)
    kernel.shake()
  }

  return {
    keeping: () => keeping,
    /** Whether a session could be restored now: kept in storage, or handed over by a window. */
    canRestore: () => !FrameStorage.denied() || SignClientStorage.hasSeed(),
    /** A pairing connected: offered for keeping where nothing else keeps it. */
    approved() {
      if (FrameStorage.denied()) set('offer')
    },
    /** Start-up settled: a session a window kept is offered back, unless another one is live. */
    settled() {
      if (FrameStorage.denied() && kernel.storage.getSessionKept() && !connected()) set('restore')
    },
    /** A namespace disconnected: once the session is gone, so is the offer, and the kept one is let go. */
    disconnected() {
      if (connected()) return
      if (keeping === 'offer' || keeping === 'kept') kernel.storage.setSessionKept(false)
      if (keeping !== 'restore') set('none')
    },
    /** A new pairing starts its client empty, which could not take a kept session afterwards. */
    pairing() {
      if (keeping === 'restore') set('none')
    },
    /** In the click: the window keeps the session's keys. */
    keep() {
      const origin = kernel.origin()
      if (!origin) return
      Keeper.keep({ scope: origin, put: SignClientStorage.snapshot() }).then(
        (entries) => {
          if (!entries || Object.keys(entries).length === 0) return failed(texts.guard.windowBlocked)
          kernel.storage.setSessionKept(true)
          set('kept')
          kernel.snackbar.show('success', texts.walletConnect.kept)
        },
        () => failed(texts.guard.windowBlocked),
      )
    },
    /** In the click: the window hands the kept keys back, and the session connects as a pairing does. */
    restore() {
      const origin = kernel.origin()
      if (!origin || started()) return
      const ended = () => {
        kernel.storage.setSessionKept(false)
        set('none')
        failed(texts.walletConnect.restoreFailed)
      }
      Keeper.keep({ scope: origin }).then(
        (entries) => {
          if (!entries) return failed(texts.guard.windowBlocked)
          SignClientStorage.seed(entries)
          if (Object.keys(entries).length === 0) return ended()
          flow()
            .then((f) => f.resume())
            .then((resumed) => (resumed ? set('kept') : ended()), ended)
        },
        () => failed(texts.guard.windowBlocked),
      )
    },
  }
}
