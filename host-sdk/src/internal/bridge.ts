/**
 * The part of the host SDK that talks to the modal: the handshake on each frame load, the messenger
 * with the contract's shapes, and the page's own wallets. Loaded after the host page's `load` event
 * (a second script, or a dynamic import in bundled dApps) so it adds nothing to the page's start-up.
 */
import {
  Async,
  Errors,
  Handshake,
  type HostApi,
  Messenger,
  Methods,
  type Request,
  Schema,
  type State,
} from '@airlock/bridge-protocol'
import { parse } from '@airlock/bridge-protocol/Shape'
import * as Siwx from '@airlock/bridge-protocol/Siwx'
import type { AirlockOptions } from '../AirlockOptions.ts'
import * as BatchCalls from './batchCalls.ts'
import * as HostStorage from './hostStorage.ts'
import { pageWallets } from './pageWallets.ts'
import * as SocialReturn from './socialReturn.ts'

export type Remote = Messenger.Messenger<typeof Schema.modalApi>['remote']

/**
 * Where the modal runs: the frame (told of each load, the first one included even if it came before the
 * bridge), or, where the page's CSP refuses the frame, a window of the modal's own origin.
 */
export type Surface = { frame: HTMLIFrameElement; onLoad(listener: () => void): void } | { window: Window }

/**
 * What the core gives the bridge, and hears back from it. The dApp's options come whole: what the bridge
 * derives from them is worked out here, after the page's load, not in the 5 KB host script.
 */
export type BridgeOptions = {
  surface: Surface
  modalOrigin: string
  /** The dApp's options to createAirlock. */
  config: AirlockOptions
  /** Airlock's own providers and wallets, never listed as page wallets. */
  own: WeakSet<object>
  /** Aborted when the dApp destroys Airlock: every page listener goes with it. */
  signal: AbortSignal
  setState(state: State): void
  resize(height: number): void
  /** A handshake succeeded: calls may go to `remote`. */
  ready(remote: Remote): void
  /**
   * The modal refused the page (`final`), or the frame reloaded or stopped answering: pending calls fail
   * with `error`.
   */
  failed(error: Errors.BaseError, final: boolean): void
  /** The frame is gone or hangs (mount a new one), or the window was closed. */
  dead(): void
  /** After a refusal, the visitor closed the modal's alert. */
  dismissed(): void
}

/** How often a modal that has work in hand is asked whether it still answers. */
const heartbeatMs = 250
/**
 * A modal silent this long is gone. With the heartbeat, a pending call fails at most 1.75 s after the frame
 * dies: within the 2 s promised even when the page's timers run late under load.
 */
const silenceMs = 1_500

/** Starts the bridge; returns the function that closes it. */
export function start(options: BridgeOptions): () => void {
  const { config } = options
  const requestTimeout = config.timeouts?.request ?? 30_000
  // The dApp turned sign-in on: the modal may ask for a sign-in message for this page to be signed, with
  // the statement and resources the dApp configured.
  const signIn = config.siweConfig ?? config.siwx
  // The dApp left the modal's Send or Swaps on, or switched Pay on (Send and Swaps each make transactions of
  // the modal's own, and so does Pay, off by default): while the modal shows, it may ask the page wallet to
  // sign a transaction the dApp did not ask for (the wallet's own prompt shows the person what they sign).
  const modalSends =
    config.features?.send !== false || config.features?.swaps !== false || config.features?.pay === true
  let messenger: Messenger.Messenger<typeof Schema.modalApi> | undefined
  // Page listeners go with this bridge (a re-mounted frame gets a new one) or with Airlock.
  const stop = new AbortController()
  options.signal.addEventListener('abort', () => stop.abort(), { signal: stop.signal })
  const { signal } = stop
  // Calls in flight and the dialog shown: while either lasts, a dead frame must be noticed.
  let busy = 0
  let open = false
  const wallets = pageWallets(
    options.own,
    signal,
    () => messenger?.remote.walletsChanged(wallets.list()).catch(() => {}),
    (event) => messenger?.remote.walletEvent(event).catch(() => {}),
    config.externalWallets,
  )
  // Defence in depth: the modal may manage the connection on its own (connect, read accounts and chain,
  // switch or add a chain, disconnect), but anything else reaches a page wallet only while this page has
  // that very request (method and parameters) in flight. A modal origin that went bad cannot make the
  // page's wallet sign something the dApp never asked for, nor swap what it asked to be signed. Two
  // exceptions the dApp chose: the sign-in message for this page, and, with Send or Swaps on, a
  // transaction while the modal is on screen (never a message: those could be replayed elsewhere
  // unseen). And one message the modal shows first: a name's registration, which says nothing but a name
  // for the address, and only for 10 minutes. And the calls of the dApp's own EIP-5792 batch, once each,
  // which the modal sends one by one to a wallet that cannot batch.
  const batchCalls = BatchCalls.create()
  const inFlight = new Map<string, number>()
  const track = (key: string, step: 1 | -1) => inFlight.set(key, (inFlight.get(key) ?? 0) + step)
  const host: HostApi = {
    listWallets: () => wallets.list(),
    walletRequest: ({ walletId, request }) => {
      const allowed =
        Methods.managesConnection(request.method) ||
        inFlight.get(requestKey(request)) ||
        batchCalls.take(request) ||
        // Reads that prompt no one and tell the modal only what the wallet tells any page: whether it
        // batches (EIP-5792), so the modal knows to pass a batch on or send its calls one by one, and the
        // assets it says the account holds (EIP-7811), shown beside the API's balances.
        request.method === 'wallet_getCapabilities' ||
        request.method === 'wallet_getAssets' ||
        (signIn && isSignInForThisPage(request, signIn)) ||
        (modalSends && open && isPlainTransaction(request)) ||
        (open && isNameRegistration(request))
      if (!allowed) throw new Errors.UnauthorizedError('This page did not ask for that request.')
      return wallets.run(walletId, request)
    },
    setState: (state) => {
      open = state.open
      options.setState(state)
    },
    resize: ({ height }) => options.resize(height),
    ping: () => 'pong',
    storageRead: () => HostStorage.read(options.modalOrigin),
    storageWrite: ({ key, value }) => HostStorage.write(options.modalOrigin, key, value),
    leaveFor: ({ url }) => SocialReturn.leaveFor(url),
    socialResult: () => SocialReturn.take(),
  }
  // Out of the address as soon as this script runs, whether or not the modal asks for it.
  SocialReturn.clean()

  const { surface } = options
  let refused = false
  const greet = (target: Window) =>
    Handshake.connect({
      target,
      modalOrigin: options.modalOrigin,
      projectId: config.projectId,
      onDismissed: options.dismissed,
    }).then(
      (port) => {
        // Created in the same task as the welcome, so no message on the port can arrive unheard.
        messenger = Messenger.create({
          port,
          local: Schema.hostApi,
          implementation: host,
          peer: Schema.modalApi,
          // A switch waits on the wallet's prompt and a payment on the visitor, like the requests that need a
          // person.
          timeoutOf: (method, input) =>
            method === 'switchNetwork' ||
            method === 'pay' ||
            (method === 'request' && Methods.needsUser(input as Request))
              ? undefined
              : requestTimeout,
        })
        const remote = messenger.remote
        // Wallet Standard results reach the dApp only in the shape the feature promises.
        const calls: Remote = {
          ...remote,
          request: (request) => {
            // Keyed as the modal will pass it back: parsed by the same shape, so extra keys drop alike.
            const parsed = parse(Schema.request, request)
            const key = parsed.ok ? requestKey(parsed.value) : ''
            if (parsed.ok) batchCalls.asked(parsed.value)
            track(key, 1)
            busy++
            return remote
              .request(request)
              .then((result) => {
                const parsed = parse(Schema.resultOf(request as Request), result)
                if (parsed.ok) return parsed.value
                throw new Errors.InternalError(`Malformed result of ${request.method}: ${parsed.message}`)
              })
              .finally(() => {
                track(key, -1)
                busy--
              })
          },
        }
        // A call that timed out tells the dApp's onTimeout why, whichever call it was.
        const timedOut = (error: { reason?: Errors.TimeoutReason } | null) => {
          if (error?.reason) config.onTimeout?.(error.reason)
          throw error
        }
        options.ready(
          Object.fromEntries(
            Object.entries(calls).map(([name, call]) => [
              name,
              (input: never) => (call as (input: never) => Promise<unknown>)(input).catch(timedOut),
            ]),
          ) as Remote,
        )
        messenger.remote.getState().then(host.setState, () => {})
      },
      (error: Errors.BaseError) => {
        if (refused) return
        refused = true
        options.failed(error, true)
      },
    )

  if ('window' in surface) {
    // The opener sees no load event of a window on another origin: hello until the modal answers.
    const again = setInterval(() => {
      if (messenger || refused || surface.window.closed) clearInterval(again)
      else greet(surface.window)
    }, 200)
    signal.addEventListener('abort', () => clearInterval(again))
    greet(surface.window)
  } else {
    // Each load of the frame (the first, or a reload) gets a fresh handshake; a reload fails pending calls.
    surface.onLoad(() => {
      const target = surface.frame.contentWindow
      if (!target) return
      if (messenger) {
        const reloaded = new Errors.DisconnectedError('The Airlock modal reloaded.')
        messenger.close(reloaded)
        messenger = undefined
        options.failed(reloaded, false)
      }
      greet(target)
    })
  }
  const present = () => ('window' in surface ? !surface.window.closed : surface.frame.isConnected)

  // A frame the page removed, or whose document hangs or died, answers nothing, and a call waiting on a
  // person (a connect, a signature) has no time-out of its own: without this it would wait forever.
  // A window closed by the visitor is a refusal of whatever it was asked.
  let asking = false
  const heartbeat = setInterval(() => {
    const current = messenger
    if (!current || asking || (present() && !busy && !open)) return
    asking = true
    const alive = present()
      ? Async.withTimeout(current.remote.ping(), silenceMs, () => false)
      : Promise.reject(false)
    alive
      .catch((error) => error !== false)
      .then((answered) => {
        asking = false
        if (answered !== false || current !== messenger) return
        const gone =
          'window' in surface
            ? new Errors.UserRejectedRequestError('The Airlock window was closed.')
            : new Errors.DisconnectedError('The Airlock modal stopped responding.')
        current.close(gone)
        messenger = undefined
        options.failed(gone, false)
        options.dead()
      })
  }, heartbeatMs)
  signal.addEventListener('abort', () => clearInterval(heartbeat))

  return () => {
    stop.abort()
    messenger?.close()
  }
}

/** A request's identity: namespace, method and parameters, bytes included. */
function requestKey(request: Request): string {
  return JSON.stringify(request, (_, value) =>
    value instanceof Uint8Array ? `bytes:${value.join(',')}` : value,
  )
}

/**
 * A message the modal may have signed without the dApp asking: a sign-in (EIP-4361 / CAIP-122) for this
 * page exactly — its host as the domain, its origin as the URI, no scheme — with the statement and resources
 * the dApp configured. A modal that went bad can then get no more than that sign-in signed, which the dApp
 * asked for by turning sign-in on.
 */
export function isSignInForThisPage(
  request: Request,
  expected: { statement?: string | undefined; resources?: string[] | undefined },
  page: Pick<Location, 'host' | 'origin'> = location,
): boolean {
  let bytes: Uint8Array | undefined
  if (request.method === 'personal_sign' && Array.isArray(request.params)) {
    const hex = request.params[0]
    if (typeof hex === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(hex))
      bytes = new Uint8Array((hex.slice(2).match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)))
  } else if (request.method === 'solana:signMessage' || request.method === 'bitcoin:signMessage') {
    bytes = (request.params as { message: Uint8Array }).message
  }
  if (!bytes) return false
  let message: Siwx.Message
  try {
    message = Siwx.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return false
  }
  return (
    message.scheme === undefined &&
    message.domain === page.host &&
    message.uri === page.origin &&
    (message.statement ?? '') === (expected.statement ?? '') &&
    JSON.stringify(message.resources ?? []) === JSON.stringify(expected.resources ?? [])
  )
}

/** Unix seconds a registration's timestamp may be off, as the API allows. */
const registrationSkewSeconds = 600

/**
 * A name's registration (docs/behaviour.md §7): `personal_sign` of JSON that holds exactly `name` (dotted, no spaces),
 * `attributes` (texts) and a `timestamp` within 10 minutes of now, and nothing else, so it can be nothing but
 * a registration (a sign-in, a permit or an order are other shapes) and no old one can be replayed.
 */
export function isNameRegistration(request: Request, now = Date.now()): boolean {
  if (request.method !== 'personal_sign' || !Array.isArray(request.params)) return false
  const hex = request.params[0]
  if (typeof hex !== 'string' || !/^0x([0-9a-fA-F]{2})+$/.test(hex)) return false
  let message: unknown
  try {
    const bytes = new Uint8Array((hex.slice(2).match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)))
    message = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return false
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return false
  const { name, attributes, timestamp, ...rest } = message as Record<string, unknown>
  return (
    Object.keys(rest).length === 0 &&
    typeof name === 'string' &&
    /^[^\s.]+(\.[^\s.]+)+$/.test(name) &&
    typeof attributes === 'object' &&
    attributes !== null &&
    Object.values(attributes).every((value) => typeof value === 'string') &&
    typeof timestamp === 'number' &&
    Math.abs(timestamp - now / 1000) <= registrationSkewSeconds
  )
}

/** The error a call gets where no modal can exist (server-side rendering). */
export const disconnected = () => new Errors.DisconnectedError()

/**
 * A transaction the modal's Send may ask for. On Bitcoin, only with SIGHASH_ALL (or taproot's default): any
 * other sighash leaves outputs unsigned, so a modal gone bad could spend the signed inputs elsewhere.
 */
export function isPlainTransaction(request: Request): boolean {
  if (!Methods.isTransaction(request.method)) return false
  if (request.namespace !== 'bip122' || request.method !== 'bitcoin:signTransaction') return true
  return request.params.inputsToSign.every((input) => input.sigHash === undefined || input.sigHash <= 1)
}
