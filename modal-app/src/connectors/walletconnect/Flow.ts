/**
 * WalletConnect as the modal runs it: the pairing (machine, QR URI, expiry, deep links) and the session
 * with its requests. The core keeps the connections; this module tells the connector when a wallet
 * approved and what the wallet later changed.
 *
 * Loaded on demand (after the handshake, when WalletConnect is configured), and sign-client itself only
 * when a pairing starts or a stored session is restored, so neither is in the modal's first chunk.
 */
import { Async, type Caip, Errors, Methods, type Request } from '@airlock/bridge-protocol'
import { createActor } from 'xstate'
import type * as Connection from '../../core/Connection.ts'
import type { Timers } from '../../core/Snackbar.ts'
import type { Storage } from '../../core/Storage.ts'
import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import * as Injected from '../injected/Injected.ts'
import type * as WalletConnect from './Client.ts'
import { pairingLink } from './links.ts'
import * as Pairing from './Pairing.ts'

/** WalletConnect's public relay, used when the project names none. */
export const defaultRelayUrl = 'wss://relay.walletconnect.org'

/** The WalletConnect pairing as ConnectingWalletConnectBasic shows it. */
export type PairingInfo = {
  status: 'idle' | 'proposing' | 'waiting' | 'expired' | 'failed' | 'approved'
  uri?: string | undefined
  /** Epoch ms at which the shown pairing counts as expired (10 s before its 4 minutes are up). */
  expiresAt?: number | undefined
  /** The registry wallet picked for it, with its deep links; none for the plain QR code. */
  target?: Pairing.Target | undefined
  failure?: Pairing.Failure | undefined
  /** The picked wallet's links this device can open: its mobile link on a phone, else its desktop link; its web app on both. */
  links: ('mobile' | 'desktop' | 'webapp')[]
}

export type Options = {
  projectId: string
  relayUrl?: string | undefined
  storage: Storage
  timers: Timers
  now: () => number
  mobile: boolean
  /** Records an analytics event for the host page. */
  track: (event: { event: string; properties?: Record<string, unknown> }) => void
  openUrl: (url: string) => void
  loadConnector: () => Promise<typeof WalletConnect>
  /** The host page's origin, from the handshake. */
  origin: () => string | undefined
  networks: () => readonly Network[]
  changed: () => void
  /** The wallet approved a pairing: the core connects the namespaces the session carries. */
  approved: (session: WalletConnect.Session) => void
  /** The wallet changed or ended the live session. */
  event: (event: WalletConnect.Event) => void
  /**
   * Whether a client started now could find a stored session. Not where the frame has no storage and no
   * window handed it a kept one: restoring there would only load sign-client to find nothing, and a client
   * started empty could not take a kept session later.
   * @default always
   */
  canRestore?: (() => boolean) | undefined
}

export type Flow = {
  info(): PairingInfo
  /** A pairing waits for the wallet (some browsers suspend a page in the background: see the connector). */
  waiting(): boolean
  /** Starts a pairing, for a registry wallet or the plain QR code. */
  start(target?: Pairing.Target): void
  /** Starts a pairing unless one is under way (a view opened directly). */
  ensure(): void
  /** Leaves the pairing (clearing its URI, expiry and deep link), unless it already connected. */
  reset(): void
  /** Makes a new pairing for an expired one; tries a failed one again, 1 s after it failed at the earliest. */
  retry(): void
  /** Opens the picked wallet's app with the pairing URI. */
  openWallet(kind: 'mobile' | 'desktop' | 'webapp'): void
  /** A namespace's connection from the live session; fails when it carries none there. */
  connection(namespace: Caip.Namespace, fallback?: Caip.ChainId): Promise<Connection.Connection>
  /** The same after a reload, from the session sign-client kept in the modal origin's storage. */
  restore(namespace: Caip.Namespace, fallback?: Caip.ChainId): Promise<Connection.Connection>
  /** Starts the client on what storage holds and connects its session, as a pairing does; false: none. */
  resume(): Promise<boolean>
  /** Whether sign-client has started in this page load. */
  started(): boolean
  request(connection: Connection.Connection, request: Request): Promise<unknown>
  /** The EVM methods the live session's wallet approved; none without a session. */
  methods(): readonly string[]
  /** Ends the live session. */
  disconnect(): Promise<void>
  /** The wallet-side session event applies: `updated` replaces it, `deleted` forgets it. */
  follow(event: WalletConnect.Event): boolean
}

/**
 * @example
 * const flow = Flow.create({ projectId, storage, timers, now, …, approved, event })
 * flow.start()
 */
export function create(options: Options): Flow {
  const { timers, now, storage } = options
  let connector: typeof WalletConnect | undefined
  let session: WalletConnect.Session | undefined
  let expiryTimer: unknown

  /** The sign-client, started on first use; a failed start is tried again next time. */
  const walletConnect = Async.once(() =>
    options.loadConnector().then((module) => {
      connector = module
      const origin = options.origin()
      return module.create({
        projectId: options.projectId,
        relayUrl: options.relayUrl ?? defaultRelayUrl,
        // The wallet shows the site the visitor is on: the host page, as the browser reported it.
        metadata: {
          name: origin ? new URL(origin).host : 'Airlock',
          description: texts.walletConnect.via,
          url: origin ?? '',
          icons: [],
        },
        onEvent: (event) => options.event(event),
        storagePrefix: `airlock-${(origin ?? '').replace(/[^a-z0-9]/gi, '_')}`,
      })
    }),
  )

  const pairing = createActor(
    Pairing.machine.provide({
      actions: {
        propose: ({ self }, { attempt }) => {
          timers.clearTimeout(expiryTimer)
          const failed = (error: unknown) => {
            const { context } = self.getSnapshot()
            if (context.attempt !== attempt) return
            const failure = failureOf(error)
            options.track({
              event: 'CONNECT_ERROR',
              properties: { method: context.linking ? 'mobile' : 'qrcode', message: failure.message },
            })
            self.send({ type: 'FAILED', attempt, failure, now: now() })
          }
          walletConnect()
            .then((wc) => wc.pair(options.networks()))
            .then(({ uri, approval }) => {
              self.send({ type: 'PROPOSED', attempt, uri, now: now() })
              const { expiresAt } = self.getSnapshot().context
              if (expiresAt !== undefined)
                expiryTimer = timers.setTimeout(
                  () => self.send({ type: 'EXPIRING', attempt }),
                  Math.max(0, expiresAt - now()),
                )
              approval.then((approved) => onApproved(approved, attempt), failed)
            })
            .catch(failed)
        },
        finalize: (_, { target, method }) => {
          timers.clearTimeout(expiryTimer)
          const link = target?.mobileLink && options.mobile ? target.mobileLink : undefined
          if (link && target) storage.setDeepLink({ name: target.name, href: link })
          options.track({
            event: 'CONNECT_SUCCESS',
            properties: { method, name: target?.name ?? session?.peer.name ?? 'WalletConnect' },
          })
        },
        reset: () => {
          timers.clearTimeout(expiryTimer)
          storage.clearDeepLink()
        },
      },
    }),
  )
  pairing.subscribe(() => options.changed())
  pairing.start()

  function onApproved(approved: WalletConnect.Session, attempt: number) {
    const snap = pairing.getSnapshot()
    if (snap.value !== 'waiting' || snap.context.attempt !== attempt) {
      // The visitor left this pairing; a session the wallet approved anyway must not linger.
      void walletConnect()
        .then((wc) => wc.disconnect(approved))
        .catch(() => {})
      return
    }
    session = approved
    pairing.send({ type: 'APPROVED', attempt, method: snap.context.linking ? 'mobile' : 'qrcode' })
    options.approved(approved)
  }

  async function connection(namespace: Caip.Namespace, fallback?: Caip.ChainId) {
    const found = session && connector?.connectionOf(session, namespace, options.networks(), fallback)
    if (!found) throw new Errors.UnauthorizedError()
    if (namespace !== 'eip155') return found
    // Wallets may answer in lowercase; dApps compare against the checksummed form.
    const addresses = await Injected.checksummed(found.accounts.map((account) => account.address))
    return { ...found, accounts: addresses.map((address) => ({ address })) }
  }

  return {
    info() {
      const snap = pairing.getSnapshot()
      const { uri, target, failure, expiresAt } = snap.context
      const links: PairingInfo['links'] = []
      if (options.mobile && target?.mobileLink) links.push('mobile')
      if (!options.mobile && target?.desktopLink) links.push('desktop')
      if (target?.webappLink) links.push('webapp')
      return { status: snap.value, uri, target, failure, expiresAt, links }
    },
    waiting: () => pairing.getSnapshot().value === 'waiting',
    start: (target) => pairing.send({ type: 'START', target }),
    ensure() {
      if (pairing.getSnapshot().value === 'idle') pairing.send({ type: 'START' })
    },
    reset() {
      if (pairing.getSnapshot().value !== 'approved') pairing.send({ type: 'RESET' })
    },
    retry() {
      const snap = pairing.getSnapshot()
      const { failedAt } = snap.context
      if (snap.value === 'expired') return void pairing.send({ type: 'RETRY', now: now() })
      if (snap.value !== 'failed' || failedAt === undefined) return
      const wait = failedAt + Pairing.retryAfterMs - now()
      if (wait <= 0) pairing.send({ type: 'RETRY', now: now() })
      else timers.setTimeout(() => pairing.send({ type: 'RETRY', now: now() }), wait)
    },
    openWallet(kind) {
      const { uri, target } = pairing.getSnapshot().context
      const app =
        kind === 'mobile' ? target?.mobileLink : kind === 'desktop' ? target?.desktopLink : target?.webappLink
      const link = uri && app ? pairingLink(app, uri) : undefined
      if (!link) return
      pairing.send({ type: 'LINKED' })
      options.openUrl(link)
    },
    connection,
    async restore(namespace, fallback) {
      if (!connector && !(options.canRestore?.() ?? true)) throw new Errors.UnauthorizedError()
      const wc = await walletConnect()
      session ??= wc.restore()
      return connection(namespace, fallback)
    },
    async resume() {
      const wc = await walletConnect()
      session ??= wc.restore()
      if (!session) return false
      options.approved(session)
      return true
    },
    started: () => connector !== undefined,
    async request(from, request) {
      const wc = await walletConnect()
      if (!session) throw new Errors.DisconnectedError()
      // On a phone the wallet is another app: take the visitor there to approve.
      const link = options.mobile ? storage.getDeepLink() : undefined
      if (link && Methods.needsUser(request)) options.openUrl(link.href)
      return wc.request(session, request, from.chainId)
    },
    methods: () => session?.methods ?? [],
    async disconnect() {
      const ending = session
      session = undefined
      if (ending) await (await walletConnect()).disconnect(ending)
    },
    follow(event) {
      if (event.type === 'updated') {
        if (session?.topic !== event.session.topic) return false
        session = event.session
        return true
      }
      if (session?.topic !== event.topic) return false
      if (event.type === 'deleted') session = undefined
      return true
    },
  }
}

function failureOf(error: unknown): Pairing.Failure {
  return {
    code: Errors.codeOf(error) ?? Errors.InternalError.code,
    message: Errors.messageOf(error, texts.errors.fallback),
  }
}
