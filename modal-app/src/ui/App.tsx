import { Suspense, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react'
import type { Modal, Snapshot, Ui } from '../Modal.ts'
import { texts } from '../texts.ts'
import { Connect } from '../views/Connect.tsx'
import { ConnectingExternal } from '../views/ConnectingExternal.tsx'
import { BackIcon, CloseIcon } from './icons.tsx'
import { focusables, trapTab } from './keys.ts'
import { Account, Networks, UnsupportedChain } from './lazy.ts'
import { Snack } from './Snack.tsx'

const titleId = 'airlock-title'

/**
 * The whole modal: backdrop and card (or, embedded, the card alone). Always rendered, also while the host
 * keeps the frame hidden, so opening only flips state and the current view is already painted.
 */
export function App({ modal }: { modal: Modal }) {
  const snapshot = useSyncExternalStore(modal.subscribe, modal.getSnapshot)
  const { ui } = modal
  const card = <Card snapshot={snapshot} ui={ui} />
  if (snapshot.embedded) return card
  return (
    <div className="overlay" data-open={snapshot.open}>
      {/* The backdrop is a pointer convenience; keyboard users close with Escape or the Close button. */}
      <div className="backdrop" aria-hidden="true" onClick={() => ui.close()} />
      {card}
    </div>
  )
}

function Card({ snapshot, ui }: { snapshot: Snapshot; ui: Ui }) {
  const ref = useRef<HTMLElement>(null)
  const { open, view, embedded } = snapshot

  // Focus moves into the card when it opens and onto the new view when the view changes. The host shows
  // the frame and focuses it a moment after the state that opened it, so a focus that landed nowhere
  // (on the body of a frame that was still hidden) is placed again when the frame's window gets focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view must take focus, so `view` re-runs it.
  useEffect(() => {
    const card = ref.current
    if (!open || !card || embedded) return
    const place = () => {
      const body = card.querySelector<HTMLElement>('.view')
      const target = (body && focusables(body)[0]) ?? focusables(card)[0] ?? card
      target.focus({ preventScroll: true })
    }
    place()
    const onFocus = () => {
      if (!card.contains(document.activeElement)) place()
    }
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [open, view, embedded])

  // Escape closes wherever focus is in the frame, also on its body; the router decides if it may.
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      event.preventDefault()
      ui.close()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [ui])

  // Embedded, the host sizes its element to the card.
  useLayoutEffect(() => {
    const card = ref.current
    if (!embedded || !card || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => ui.resized(card.getBoundingClientRect().height))
    observer.observe(card)
    return () => observer.disconnect()
  }, [embedded, ui])

  const alert = snapshot.alerts[0]
  return (
    <section
      ref={ref}
      className={snapshot.shake ? 'card shake' : 'card'}
      role="dialog"
      aria-modal={embedded ? undefined : 'true'}
      aria-labelledby={titleId}
      tabIndex={-1}
      onKeyDown={trapTab}
    >
      <header className="card-header">
        {snapshot.canGoBack ? (
          <button type="button" className="icon-button" aria-label={texts.back} onClick={() => ui.back()}>
            <BackIcon />
          </button>
        ) : (
          <span className="icon-spacer" />
        )}
        <h1 id={titleId}>{alert ? alert.title : titleOf(snapshot)}</h1>
        {embedded ? (
          <span className="icon-spacer" />
        ) : (
          <button type="button" className="icon-button" aria-label={texts.close} onClick={() => ui.close()}>
            <CloseIcon />
          </button>
        )}
      </header>
      {snapshot.alerts.length > 0 ? <Alerts snapshot={snapshot} /> : <Body snapshot={snapshot} ui={ui} />}
      <Snack snack={snapshot.snackbar} />
    </section>
  )
}

function Alerts({ snapshot }: { snapshot: Snapshot }) {
  return (
    <div className="view">
      {snapshot.alerts.map((alert) => (
        <div key={alert.kind} className="alert" role="alert">
          <p className="alert-title">{alert.title}</p>
          {alert.detail && <p>{alert.detail}</p>}
        </div>
      ))}
    </div>
  )
}

function Body({ snapshot, ui }: { snapshot: Snapshot; ui: Ui }) {
  switch (snapshot.view) {
    case 'Connect':
      return <Connect snapshot={snapshot} ui={ui} />
    case 'ConnectingExternal':
      return <ConnectingExternal snapshot={snapshot} ui={ui} />
    case 'Account':
      return (
        <Suspense fallback={<Loading />}>
          <Account snapshot={snapshot} ui={ui} />
        </Suspense>
      )
    case 'Networks':
      return (
        <Suspense fallback={<Loading />}>
          <Networks snapshot={snapshot} ui={ui} />
        </Suspense>
      )
    case 'UnsupportedChain':
      return (
        <Suspense fallback={<Loading />}>
          <UnsupportedChain snapshot={snapshot} ui={ui} />
        </Suspense>
      )
    default:
      // Views of later issues (WalletConnect, sign-in, approval): the router may name them, nothing shows.
      return <div className="view" />
  }
}

function Loading() {
  return <div className="view view-loading" aria-busy="true" />
}

function titleOf(snapshot: Snapshot): string {
  switch (snapshot.view) {
    case 'Connect':
      return texts.connect.title
    case 'ConnectingExternal':
      return snapshot.prompt?.wallet.name ?? texts.connect.title
    case 'Account':
      return texts.account.title
    case 'Networks':
      return texts.networks.title
    case 'UnsupportedChain':
      return texts.unsupportedChain.title
    default:
      return 'Airlock'
  }
}
