import {
  memo,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { texts } from '../../shared/texts.ts'
import { BackIcon, CloseIcon } from '../../shared/ui/icons.tsx'
import { focusables, trapTab } from '../../shared/ui/keys.ts'
import type { Modal } from '../Modal.ts'
import { type Snapshot, sameButOpen, type Ui } from '../Snapshot.ts'
import { Connect } from '../views/Connect.tsx'
import { AnalyticsNotice } from './AnalyticsNotice.tsx'
import * as Dwell from './Dwell.ts'
import { GuardContext, GuardWaiting, useSight } from './Guard.tsx'
import { useCardHeight } from './Height.ts'
import { Snack } from './Snack.tsx'

const titleId = 'airlock-title'

/**
 * The whole modal: backdrop and card (or, embedded, the card alone). Always rendered, also while the host
 * keeps the frame hidden, so opening only flips state and the current view is already painted.
 */
export function App({ modal }: { modal: Modal }) {
  // The server snapshot is the same one: it lets the markup be rendered outside a browser (tests).
  const snapshot = useSyncExternalStore(modal.subscribe, modal.getSnapshot, modal.getSnapshot)
  const { ui } = modal
  const card = <Card snapshot={snapshot} ui={ui} modal={modal} />
  if (snapshot.embedded) return card
  return (
    // Shown while open, or while an alert may be (the host shows a refused page's alert without opening).
    <div className="overlay" data-open={snapshot.open || snapshot.alerts.length > 0}>
      {/* The backdrop is a pointer convenience; keyboard users close with Escape or the Close button. */}
      <div className="backdrop" aria-hidden="true" onClick={() => ui.close()} />
      {card}
    </div>
  )
}

function Card({ snapshot, ui, modal }: { snapshot: Snapshot; ui: Ui; modal: Modal }) {
  const ref = useRef<HTMLElement>(null)
  const { open, view, embedded } = snapshot

  const place = useCallback(() => {
    const card = ref.current
    if (!card) return
    const body = card.querySelector<HTMLElement>('.view')
    const target = (body && focusables(body)[0]) ?? focusables(card)[0] ?? card
    target.focus({ preventScroll: true })
  }, [])

  // A lazy view shows its fallback first, and focus placed then lands on Back or Close; once the view's
  // chunk has rendered, focus moves into it, unless the user has already moved it there. One callback for
  // the card's life (`open` read when it runs), so opening leaves the memoised view's props as they were.
  const opened = useRef(open)
  opened.current = open
  const onViewShown = useCallback(() => {
    const card = ref.current
    if (!opened.current || !card || embedded) return
    if (card.querySelector('.view')?.contains(document.activeElement)) return
    place()
  }, [embedded, place])

  // Focus moves into the card when it opens and onto the new view when the view changes. The host shows
  // the frame and focuses it a moment after the state that opened it: until then the frame's window has no
  // focus, and a focus taken from it would pull the page's focus into a frame the page still hides (and
  // leave the host nothing to give focus back to), so the card takes it when the window gets it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view must take focus, so `view` re-runs it.
  useEffect(() => {
    const card = ref.current
    if (!open || !card || embedded) return
    if (document.hasFocus()) place()
    const onFocus = () => {
      if (!card.contains(document.activeElement)) place()
    }
    // A focused control can vanish under the user (a view swapped, a Suspense boundary hiding its content
    // while a chunk loads); focus would then fall to the body, so it is placed again in the card.
    let lost: ReturnType<typeof setTimeout> | undefined
    const onFocusOut = () => {
      clearTimeout(lost)
      lost = setTimeout(() => {
        if (document.activeElement === document.body || document.activeElement === null) place()
      })
    }
    window.addEventListener('focus', onFocus)
    card.addEventListener('focusout', onFocusOut)
    return () => {
      clearTimeout(lost)
      window.removeEventListener('focus', onFocus)
      card.removeEventListener('focusout', onFocusOut)
    }
  }, [open, view, embedded, place])

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

  const [dwell] = useState(() => Dwell.create())
  useSight(ref, open || embedded, embedded, dwell)
  const content = useRef<HTMLDivElement>(null)
  const height = useCardHeight(content, view, !embedded)
  const alert = snapshot.alerts[0]
  // Embedded, the card is part of the page: a labelled region, and Tab may leave it.
  return (
    <GuardContext.Provider value={dwell}>
      <section
        ref={ref}
        className={snapshot.shake ? 'card shake' : 'card'}
        {...(embedded ? { role: 'region' } : { role: 'dialog', 'aria-modal': 'true' as const })}
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={embedded ? undefined : trapTab}
        style={height === undefined ? undefined : { blockSize: height }}
        data-animate={open && height !== undefined}
      >
        <div className="card-scroll">
          <div className="card-content" ref={content}>
            <header className="card-header">
              {snapshot.canGoBack ? (
                <button
                  type="button"
                  className="icon-button"
                  aria-label={texts.back}
                  onClick={() => ui.back()}
                >
                  <BackIcon />
                </button>
              ) : (
                <span className="icon-spacer" />
              )}
              <h1 id={titleId}>{alert ? alert.title : titleOf(snapshot, modal)}</h1>
              {embedded || !snapshot.closable ? (
                <span className="icon-spacer" />
              ) : (
                <button
                  type="button"
                  className="icon-button"
                  aria-label={texts.close}
                  onClick={() => ui.close()}
                >
                  <CloseIcon />
                </button>
              )}
            </header>
            {snapshot.alerts.length > 0 ? (
              <Alerts snapshot={snapshot} />
            ) : (
              <Body snapshot={snapshot} ui={ui} modal={modal} onShown={onViewShown} />
            )}
            <AnalyticsNotice snapshot={snapshot} ui={ui} />
          </div>
        </div>
        <Snack snack={snapshot.snackbar} />
        <GuardWaiting />
      </section>
    </GuardContext.Provider>
  )
}

// The first alert's title is the card's heading, so it is not repeated (screen readers read it twice).
function Alerts({ snapshot }: { snapshot: Snapshot }) {
  return (
    <div className="view">
      {snapshot.alerts.map((alert, index) => (
        <div key={alert.kind} className="alert" role="alert">
          {index > 0 && <p className="alert-title">{alert.title}</p>}
          {alert.detail && <p>{alert.detail}</p>}
        </div>
      ))}
    </div>
  )
}

type BodyProps = { snapshot: Snapshot; ui: Ui; modal: Modal; onShown: () => void }

/**
 * The current view. Opening and closing change `open` alone (`Snapshot.reopened`), which no view reads: the
 * view is not rendered again for it, so a click only shows what the hidden frame already drew. The other
 * props are the same for the card's life (the one modal, its actions, a callback without dependencies that
 * change), so the snapshot alone decides.
 */
const Body = memo(BodyOf, (before, after) => sameButOpen(before.snapshot, after.snapshot))

function BodyOf({ snapshot, ui, modal, onShown }: BodyProps) {
  const spec = modal.views.get(snapshot.view)
  // A view no enabled feature has (WalletConnect's without a project id): Connect and its "no wallets"
  // text stand in.
  if (!spec) return <Connect snapshot={snapshot} ui={ui} rows={modal.connectRows} />
  const View = spec.component
  const view = <View snapshot={snapshot} ui={ui} rows={modal.connectRows} />
  if (spec.lazy === false) return view
  return (
    <LazyView key={spec.name} onShown={onShown}>
      {view}
    </LazyView>
  )
}

/**
 * A view from its own chunk; `onShown` runs once the chunk has rendered in place of the fallback. Each
 * view gets its own boundary (a key): a shared one would keep the previous view's `Shown` mounted, so a
 * second lazy view would never report itself shown, and focus would stay on the hidden previous view.
 */
function LazyView({ children, onShown }: { children: ReactNode; onShown: () => void }) {
  return (
    <Suspense fallback={<Loading />}>
      {children}
      <Shown onShown={onShown} />
    </Suspense>
  )
}

// Effects inside a Suspense boundary run only when its content, not the fallback, is committed.
function Shown({ onShown }: { onShown: () => void }) {
  useEffect(() => onShown(), [onShown])
  return null
}

function Loading() {
  return <div className="view view-loading" aria-busy="true" />
}

function titleOf(snapshot: Snapshot, modal: Modal): string {
  return modal.views.get(snapshot.view)?.title(snapshot) ?? texts.connect.title
}
