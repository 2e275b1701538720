/** WalletConnect's logic in the modal: the flow loaded on first use, the connector, the pairing actions. */
import { Async } from '@airlock/bridge-protocol'
import type { Listing } from '../../api/Api.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import { connector, type Loader } from './connector.ts'
import type * as FlowModule from './Flow.ts'
import type { Options } from './feature.ts'
import * as Kept from './Kept.ts'
import type * as Pairing from './Pairing.ts'
import * as SignClientStorage from './SignClientStorage.ts'
import { type PairingUi, pairingView } from './types.ts'

export function setup(kernel: Kernel, options: Options): Runtime {
  const loadFlow = options.loadFlow ?? (() => import('./Flow.ts'))
  const loadClient =
    options.loadClient ??
    (() => {
      SignClientStorage.standInForDeniedLocalStorage()
      return import('./Client.ts')
    })
  let flow: FlowModule.Flow | undefined

  const loader: Loader = {
    current: () => flow,
    flow: Async.once(() =>
      loadFlow().then((module) => {
        flow = module.create({
          projectId: options.projectId,
          relayUrl: options.relayUrl,
          storage: kernel.storage,
          timers: kernel.timers,
          now: kernel.now,
          mobile: kernel.mobile,
          track: kernel.track,
          openUrl: options.openUrl ?? ((url) => void window.open(url, '_blank', 'noopener,noreferrer')),
          loadConnector: loadClient,
          origin: kernel.origin,
          networks: kernel.networks,
          changed: kernel.changed,
          approved: (session) => {
            wc?.approved(session)
            kept.approved()
          },
          event: (event) => wc?.event(event),
          canRestore: () => kept.canRestore(),
        })
        kernel.changed()
        return flow
      }),
    ),
  }
  let wc: ReturnType<typeof connector> | undefined
  const kept = Kept.create(kernel, loader.flow, () => flow?.started() ?? false)
  kernel.addConnector((context) => {
    wc = connector(context, loader, { pairingConnects: options.pairingConnects ?? false })
    return wc
  })

  /** Runs `task` on the flow: at once when it is loaded, so it keeps its order with what follows. */
  function withFlow(task: (f: FlowModule.Flow) => void) {
    if (flow) return task(flow)
    loader
      .flow()
      .then(task, (error: unknown) => console.warn('[airlock] WalletConnect is unavailable.', error))
  }

  /** Starts a pairing, for a picked wallet (its links) or any that scans the code, on the pairing view. */
  function pair(target: Pairing.Target | undefined) {
    kept.pairing()
    withFlow((f) => f.start(target))
    if (kernel.router.view() !== pairingView) kernel.router.send({ type: 'PUSH', view: pairingView })
  }

  const ui: PairingUi = {
    connectWalletConnect(listing?: Listing) {
      pair(
        listing && {
          id: listing.id,
          name: listing.name,
          mobileLink: listing.mobile_link,
          desktopLink: listing.desktop_link,
          webappLink: listing.webapp_link,
        },
      )
    },
    connectCustom: (target) => pair(target),
    openWallet(kind) {
      flow?.openWallet(kind)
    },
    keepSession: () => kept.keep(),
    restoreSession: () => kept.restore(),
    copiedLink(ok) {
      if (ok) kernel.snackbar.show('success', texts.walletConnect.linkCopied)
      else {
        kernel.snackbar.show('error', texts.walletConnect.copyFailed)
        kernel.shake()
      }
    },
  }

  return {
    ui,
    snapshot: () => ({
      walletConnect: true,
      pairing: flow?.info() ?? { status: 'idle', links: [] },
      sessionKeeping: kept.keeping(),
      deepLinksFirst: kernel.mobile,
      customWallets: options.customWallets ?? [],
    }),
    settled: () => kept.settled(),
    disconnected: () => kept.disconnected(),
    entered(view) {
      if (view === pairingView) withFlow((f) => f.ensure())
    },
    // Loaded when the modal first shows, so a click on the QR code row pairs at once.
    shown() {
      loader.flow().catch((error: unknown) => console.warn('[airlock] WalletConnect is unavailable.', error))
    },
    // A pairing nobody looks at any more ends with the modal.
    closed: () => flow?.reset(),
    back(view) {
      if (view === pairingView) flow?.reset()
    },
    // A failed pairing may be retried 1 s after it failed; an earlier click waits for that.
    retry: () => flow?.retry(),
  }
}
