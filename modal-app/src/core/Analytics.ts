/**
 * What the modal records about its own use, and when it may. An event is sent only
 * - with the visitor's consent, which the host collected (`features.analyticsConsent: true`), or
 * - when the project enabled analytics (the API's `/getAnalyticsConfig`) and the modal has shown the
 *   visitor a notice saying so, which they may dismiss or answer with "Don't share".
 * The visitor's answer to the notice is kept per page. Nothing is queued: an event from before that is
 * dropped. The host can switch it all off
 * (`features.analytics: false`). MODAL_CREATED is never sent (docs/behaviour.md §7), and at most 5 events go out in any
 * 60 s (docs/behaviour.md §9's telemetry cap), so a loop in a dApp cannot flood the API.
 */
import type { Config } from './Config.ts'

export type Event = { event: string; properties?: Record<string, unknown> }

/** docs/behaviour.md §9: telemetry cap 5 per 60 s. */
const capCount = 5
const capWindowMs = 60_000

/**
 * - `pending`: not known yet whether the project records anything (or nothing asked yet).
 * - `off`: nothing is sent (switched off, not enabled, or the visitor said "Don't share").
 * - `notice`: the project records, and the visitor has not seen the notice yet: nothing is sent.
 * - `on`: events are sent, within the cap.
 */
type Gate = 'pending' | 'off' | 'notice' | 'on'

/** What the views show: the notice line, while it is due and not dismissed. */
export type AnalyticsSlice = { analyticsNotice: boolean }

/** The visitor's answer to the notice: closed it (events continue), or "Don't share". */
export type NoticeChoice = 'dismissed' | 'declined'

export type Options = {
  features: Config['features']
  /**
   * Where the visitor's answer to the notice is kept across page loads (`Storage`'s, per page), so a notice
   * closed stays closed and "Don't share" holds. Read once the project's setting is in. @default none
   */
  choice?: { get(): NoticeChoice | undefined; set(choice: NoticeChoice): void } | undefined
  /** Whether the project enabled analytics; an unreadable setting counts as off. */
  enabled: () => Promise<boolean>
  send: (event: Event) => void
  now: () => number
  /** The gate or the notice changed: the views render again. */
  changed: () => void
}

export type Analytics = {
  /** Sends the event if the gate is open and the cap allows; otherwise drops it. Never throws. */
  track(event: Event): void
  gate(): Gate
  /** Asks the project's setting (once): called when the modal first shows. */
  check(): Promise<void>
  slice(): AnalyticsSlice
  /** The notice was on screen in the open modal: from now on events are sent. */
  noticeShown(): void
  /** The visitor closed the notice: it stays closed; events continue. */
  dismiss(): void
  /**
   * The modal closed. A notice the visitor has seen in it counts as closed (kept, per page, as OK is): a
   * visitor is told once per page, not at every opening.
   */
  closed(): void
  /** The visitor said "Don't share": nothing more is sent in this page load. */
  decline(): void
}

/**
 * @example
 * const analytics = Analytics.create({ features, enabled: api.analyticsEnabled, send, now: Date.now, changed })
 * analytics.track({ event: 'CONNECT_SUCCESS', properties: { method: 'browser', name: 'Rabby' } })
 */
export function create(options: Options): Analytics {
  const { features } = options
  let gate: Gate = features?.analytics === false ? 'off' : 'pending'
  let dismissed = false
  /** The notice has been on screen in the open modal. */
  let seen = false
  let asked: Promise<void> | undefined
  /** When the events of the last 60 s were sent. */
  let sent: number[] = []

  const set = (next: Gate) => {
    if (gate === next) return
    gate = next
    options.changed()
  }

  function check() {
    asked ??= (async () => {
      if (gate !== 'pending') return
      const enabled = await options.enabled().catch(() => false)
      if (gate !== 'pending') return
      if (!enabled) return set('off')
      // The host's word that the visitor agreed (its own consent banner) replaces the modal's notice, and the
      // visitor's own answer on an earlier visit stands: a notice seen and closed is not shown again.
      const choice = consented() ? undefined : options.choice?.get()
      if (choice === 'declined') return set('off')
      if (choice === 'dismissed') dismissed = true
      set(consented() || dismissed ? 'on' : 'notice')
    })()
    return asked
  }

  function allowed(now: number): boolean {
    sent = sent.filter((at) => now - at < capWindowMs)
    if (sent.length >= capCount) return false
    sent.push(now)
    return true
  }

  return {
    track(event) {
      if (event.event === 'MODAL_CREATED') return
      if (gate === 'pending') void check()
      if (gate !== 'on' || !allowed(options.now())) return
      try {
        options.send(event)
      } catch (error) {
        console.warn('[airlock] Could not record an analytics event.', error)
      }
    },
    gate: () => gate,
    check,
    slice: () => ({ analyticsNotice: (gate === 'notice' || gate === 'on') && !consented() && !dismissed }),
    noticeShown() {
      seen = true
      // The notice stays as it is (the slice is the same for 'on'), so nobody is told: this runs in the very
      // render that opens the modal, and telling would render the whole card again there.
      if (gate === 'notice') gate = 'on'
    },
    dismiss,
    closed() {
      if (seen && !dismissed && gate === 'on') dismiss()
    },
    decline() {
      dismissed = true
      options.choice?.set('declined')
      set('off')
      options.changed()
    },
  }

  function dismiss() {
    dismissed = true
    options.choice?.set('dismissed')
    options.changed()
  }

  function consented() {
    return features?.analyticsConsent === true
  }
}

/** A namespace's connection as the connect events read it: its state, the wallet asked, why it failed. */
export type ConnectStep = {
  value: string
  wallet?: { id: string; name: string } | undefined
  failure?: { message: string } | undefined
}

/**
 * The connect event a page wallet's transition makes: asking it (CONNECT_STARTED), its answer
 * (CONNECT_SUCCESS with method `browser`) or its refusal (CONNECT_ERROR). WalletConnect records its own
 * (with method `mobile` or `qrcode`, docs/behaviour.md §4), so only the page's wallets are the core's to record.
 */
export function connectEvent(before: ConnectStep, next: ConnectStep, pageWallet: boolean): Event | undefined {
  const wallet = next.wallet ?? before.wallet
  if (!wallet || !pageWallet) return undefined
  const name = wallet.name
  if (next.value === 'prompting' && (before.value !== 'prompting' || before.wallet?.id !== wallet.id))
    return { event: 'CONNECT_STARTED', properties: { method: 'browser', name } }
  if (before.value !== 'prompting') return undefined
  if (next.value === 'connected') return { event: 'CONNECT_SUCCESS', properties: { method: 'browser', name } }
  if (next.value === 'failed')
    return { event: 'CONNECT_ERROR', properties: { name, message: next.failure?.message ?? '' } }
  return undefined
}
