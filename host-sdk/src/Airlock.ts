import type { PublicView, Session, State } from '@airlock/bridge-protocol'
import { type Deferred, deferred } from '@airlock/bridge-protocol/Async'
import type { Request } from '@airlock/bridge-protocol/Schema'
import type { AirlockOptions } from './AirlockOptions.ts'
import { announce, icon } from './internal/announce.ts'
import type { Remote, Surface } from './internal/bridge.ts'
import { checkOptions } from './internal/checkOptions.ts'
import { type Eip1193Provider, eip1193 } from './internal/eip1193.ts'
import { frameRefused, loadFailure, notPlaced } from './internal/failures.ts'
import { type Frame, mountFrame } from './internal/frame.ts'
import { loadBridge } from './internal/loadBridge.ts'
import { modalConfig } from './internal/modalConfig.ts'
import { claim, running } from './internal/onePerPage.ts'
import { type Payment, pay } from './internal/pay.ts'
import { own } from './internal/registry.ts'
import { registerWallet, standardWallet } from './internal/walletStandard.ts'
import type { Wallet } from './WalletStandard.ts'

/** What {@link createAirlock} returns. */
export type Airlock = {
  /**
   * Shows the modal, on `view` if given; otherwise on the view that fits the moment (Connect, or Account
   * once connected). A view that cannot be shown now (Account while disconnected, say) opens that way too;
   * a name the modal does not know rejects with -32602.
   * @example await airlock.open({ view: 'Networks' })
   */
  open(options?: { view?: PublicView }): Promise<void>
  close(): Promise<void>
  /** The modal's state as last mirrored to the page. */
  getState(): State
  /** Calls back on every state change; returns the unsubscribe function. */
  subscribeState(callback: (state: State) => void): () => void
  disconnect(): Promise<void>
  switchNetwork(caipNetworkId: string): Promise<void>
  /**
   * The active account's sign-in session, if it signed in.
   * @example const session = airlock.getSession() // { address: 'eip155:1:0x…', message, signature, … }
   */
  getSession(): Session | undefined
  /** Calls back when the session starts, ends or changes; returns the unsubscribe function. */
  onSessionChange(callback: (session: Session | undefined) => void): () => void
  /**
   * Forgets the sign-in sessions in this browser; with required sign-in, also disconnects. (Ending a session
   * at the API takes the account's signature: `POST /v1/sessions/{address}/revoke`.)
   */
  signOut(): Promise<void>
  providers: { eip155: Eip1193Provider; solana: Wallet; bip122: Wallet }
  /**
   * Asks the visitor to pay `amount` of `asset` (`'native'`, the default, or an ERC-20 address) to `to` on
   * `chain`; resolves with the transaction's hash once it is confirmed. Needs `features: { pay: true }`;
   * closing the modal rejects with 4001, a bad field with -32602.
   * @example const hash = await airlock.pay({ to: '0x…', amount: '0.05', chain: 'eip155:1' })
   */
  pay(payment: Payment): Promise<`0x${string}`>
  /**
   * With `append: false`, the modal's `<dialog>`, for you to place in your page (in your app's root, a shadow
   * root, a portal); `undefined` otherwise, and on a server. Moving it reloads the modal: its connections stay,
   * calls in flight fail with 4900.
   * @example shadowRoot.append(airlock.element as HTMLDialogElement)
   */
  element: HTMLDialogElement | undefined
  /** Removes the frame (and the placed `element`) and fails pending calls. */
  destroy(): void
}

// On a server nothing will ever connect, so the mirror starts settled there.
const initial: State = {
  open: false,
  view: 'Connect',
  status: typeof window === 'undefined' ? 'disconnected' : 'connecting',
  namespaces: {},
}

/**
 * Creates Airlock on the page: mounts the modal frame once the page has loaded, and returns standard
 * providers that dApps (viem, ethers, wagmi, Wallet Standard apps) use unchanged. Safe to call on a server,
 * where it does nothing.
 * @example
 * const airlock = createAirlock({ projectId: 'demo', modalUrl: 'http://airlock.localhost:5174', networks: ['eip155:1'] })
 * const [address] = await airlock.providers.eip155.request({ method: 'eth_requestAccounts' })
 */
export function createAirlock(options: AirlockOptions): Airlock {
  // Two sign-in configurations would contradict each other; say so at once rather than pick one.
  if (options.siweConfig && options.siwx)
    throw new TypeError('Cannot set both `siweConfig` and `siwx` options.')
  checkOptions(options, scriptOrigin)
  const first = typeof window !== 'undefined' && running()
  if (first) return first
  const loadMs = options.timeouts?.load ?? 20_000
  let state = initial
  const subscribers = new Set<(state: State) => void>()
  let frame: Frame | undefined
  let ready: Deferred<Remote> | undefined
  let failure: unknown
  // The modal refused this page: the first open() shows the modal's alert, which says why.
  let refused = false
  // This page's CSP refuses the frame (frame-src): the modal opens in a window of its own instead.
  let windowed = false
  let popup: Window | null = null
  let close: (() => void) | undefined
  // Armed for each surface's first load and again after each reload, so no handshake can wait forever.
  let loadTimer: ReturnType<typeof setTimeout> | undefined
  // Every page-level listener is added with this signal, so destroy() takes them all away.
  const stop = new AbortController()
  const { signal } = stop
  // Made at once, so the dApp can place it before the page's load; the frame goes in at mount, as always.
  const element =
    options.append === false && typeof window !== 'undefined' ? document.createElement('dialog') : undefined
  // Whether the load time-out last found the element unplaced (see loadFailed).
  let unplaced = false

  const remote = (): Promise<Remote> => {
    if (signal.aborted) return Promise.reject(failure)
    if (typeof window === 'undefined')
      return loadBridge().then((bridge) => Promise.reject(bridge.disconnected()))
    if (windowed && !failure && (!popup || popup.closed)) {
      // Opened in the very call a click made: browsers open windows only then.
      popup = window.open(source('window'), 'airlock', 'popup,width=420,height=680')
      if (!popup) return Promise.reject(frameRefused)
      attach({ window: popup })
    }
    // Unplaced, the frame cannot load: a clear error now, rather than a call that waits for a placement
    // that a forgetful dApp never makes.
    if (element && !windowed && !element.isConnected) {
      console.error(`Airlock: ${notPlaced.message}`)
      return Promise.reject(notPlaced)
    }
    mount()
    return (ready as Deferred<Remote>).promise
  }
  const send = (request: Request) => remote().then((r) => r.request(request))

  const evm = eip1193(
    send,
    () => state,
    options.networks.find((n) => n.startsWith('eip155:')),
  )
  const solana = standardWallet('solana', options.networks, icon, send, () => state)
  const bip122 = standardWallet('bip122', options.networks, icon, send, () => state)

  const setState = (next: State) => {
    const before = state
    state = next
    if (next.open) frame?.show()
    else frame?.hide()
    if (before.open && !next.open) popup?.close()
    evm.update(before, next)
    solana.update(before, next)
    bip122.update(before, next)
    for (const callback of subscribers) callback(next)
  }

  const modalUrl = options.modalUrl ?? scriptOrigin
  const modalOrigin = modalUrl && new URL(modalUrl).origin
  const source = (surface?: string) => {
    // checkOptions saw to it: a page without modalUrl loaded airlock.js from the modal's origin.
    const src = new URL(modalUrl as string)
    src.searchParams.set('projectId', options.projectId)
    src.searchParams.set('config', JSON.stringify(modalConfig(options, !!container())))
    if (surface) src.searchParams.set('surface', surface)
    return src.href
  }
  const container = () =>
    typeof options.embedded === 'string'
      ? (document.querySelector(options.embedded) as HTMLElement | null)
      : options.embedded

  const mount = () => {
    if (frame || windowed) return
    frame = mountFrame(
      source(),
      container() ?? undefined,
      () => (failure ? frame?.hide() : ready?.promise.then((r) => r.close()).catch(() => {})),
      element,
    )
    const { iframe } = frame
    // The frame may load before the bridge script arrives; loads are counted so none is missed.
    let loads = 0
    let onLoad = () => {}
    iframe.addEventListener('load', () => {
      loads++
      onLoad()
    })
    attach({
      frame: iframe,
      onLoad(listener) {
        onLoad = listener
        if (loads) listener()
      },
    })
  }

  const attach = (surface: Surface) => {
    // Nobody may be waiting yet; a failure is kept for whoever calls later.
    const mine = deferred<Remote>()
    ready = mine
    const fail = (error: unknown) => {
      failure = error
      ready?.reject(error)
      // Said once, for the developer: why the page was refused and how to fix it, or that nothing loaded.
      const fix = (error as { data?: { fix?: string } }).data?.fix
      console.error(`Airlock: ${(error as Error).message}${fix ? `\n${fix}` : ''}`)
    }
    const loadFailed = () => {
      if (failure) return
      // An unplaced frame is not failing to load: wait, and give it a whole time-out once it is placed.
      const was = unplaced
      unplaced = !!element && !element.isConnected
      if (unplaced || was) return arm()
      fail(loadFailure(modalUrl))
      options.onTimeout?.('iframe_load_failed')
    }
    const arm = () => {
      clearTimeout(loadTimer)
      loadTimer = setTimeout(loadFailed, loadMs)
    }
    arm()

    loadBridge().then((bridge) => {
      // Gone before the bridge arrived: a frame the page's CSP refused.
      if (failure || ready !== mine) return
      close = bridge.start({
        surface,
        modalOrigin: modalOrigin as string,
        config: options,
        own,
        signal,
        setState,
        resize: (height) => frame?.resize(height),
        ready(remote) {
          clearTimeout(loadTimer)
          ready?.resolve(remote)
        },
        failed(error, final) {
          if (final) {
            clearTimeout(loadTimer)
            refused = true
            return fail(error)
          }
          ready?.reject(error)
          ready = deferred<Remote>()
          arm()
        },
        dead() {
          clearTimeout(loadTimer)
          close?.()
          frame?.destroy()
          frame = undefined
          // A closed window opens again on the next call from a click.
          if (windowed) ready = undefined
          else mount()
        },
        dismissed: () => frame?.hide(),
      })
    }, loadFailed)
  }

  if (typeof window !== 'undefined') {
    own.add(evm.provider).add(solana.wallet).add(bip122.wallet)
    registerWallet(solana.wallet, signal)
    registerWallet(bip122.wallet, signal)
    if (options.announce !== false) announce(evm.provider, signal)
    addEventListener(
      'securitypolicyviolation',
      (event) => {
        if (!frame || !modalOrigin || !event.blockedURI.startsWith(modalOrigin)) return
        windowed = true
        clearTimeout(loadTimer)
        ready?.reject(frameRefused)
        close?.()
        frame.destroy()
        frame = undefined
        ready = undefined
      },
      { signal },
    )
    // Mounting after `load` keeps the frame from delaying the host page's own load event.
    if (document.readyState === 'complete') mount()
    else addEventListener('load', mount, { once: true, signal })
  }

  // On a server there is no modal: actions do nothing, and requests fail as from a disconnected wallet.
  const call = (run: (r: Remote) => Promise<unknown>): Promise<void> =>
    typeof window === 'undefined' ? Promise.resolve() : remote().then((r) => run(r).then(() => undefined))

  return claim({
    open: (input) =>
      call((r) => r.open(input ?? {})).catch((error) => {
        if (refused) frame?.show()
        refused = false
        throw error
      }),
    close: () => call((r) => r.close()),
    getState: () => state,
    subscribeState(callback) {
      subscribers.add(callback)
      return () => subscribers.delete(callback)
    },
    getSession: () => state.session,
    onSessionChange(callback) {
      let last = JSON.stringify(state.session)
      const onState = (next: State) => {
        const now = JSON.stringify(next.session)
        if (now === last) return
        last = now
        callback(next.session)
      }
      subscribers.add(onState)
      return () => subscribers.delete(onState)
    },
    signOut: () => call((r) => r.signOut()),
    disconnect: () => call((r) => r.disconnect()),
    switchNetwork: (caipNetworkId) => call((r) => r.switchNetwork({ caipNetworkId })),
    providers: { eip155: evm.provider, solana: solana.wallet, bip122: bip122.wallet },
    pay: (payment) => pay(remote, payment),
    element,
    destroy() {
      // A dApp that re-creates Airlock (React's double mount, say) must not keep announcing the old one.
      failure = Object.assign(new Error('This Airlock instance was destroyed.'), { code: 4900 })
      stop.abort()
      ready?.reject(failure)
      close?.()
      frame?.destroy()
      element?.remove()
    },
  })
}

// Captured while the script tag runs; `document.currentScript` is null afterwards.
const scriptOrigin =
  typeof document !== 'undefined' &&
  document.currentScript instanceof HTMLScriptElement &&
  document.currentScript.src
    ? new URL(document.currentScript.src).origin
    : undefined
