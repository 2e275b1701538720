/**
 * The clickjacking guard. A page that frames the modal can make it nearly transparent or draw a decoy over
 * it, so that a click meant for the decoy approves something in the modal. IntersectionObserver v2
 * (`trackVisibility`) tells whether the card is really on screen: unoccluded, opaque, untransformed. Until it
 * has said so for a while, without a break and since the approval showed (`Dwell.ts`), approval buttons stay
 * disabled; where it cannot say so (a browser without v2, a covered frame), the view offers to continue in a
 * window of the modal's own origin (`approval/Approval.ts`).
 */
import {
  type ButtonHTMLAttributes,
  createContext,
  type MouseEvent,
  type RefObject,
  useContext,
  useEffect,
  useReducer,
  useState,
  useSyncExternalStore,
} from 'react'
import { texts } from '../../shared/texts.ts'
import * as Approval from '../approval/Approval.ts'
import * as Dwell from './Dwell.ts'

export type { Visibility } from './Dwell.ts'

/** The card's sight and its clock (`Dwell.ts`); views read it through {@link ApproveButton} and {@link Unverified}. */
export const GuardContext = createContext<Dwell.Dwell>(Dwell.create())

// IntersectionObserver v2 is not in TypeScript's DOM library yet.
type Entry = IntersectionObserverEntry & { isVisible?: boolean }
type Init = IntersectionObserverInit & { trackVisibility: boolean; delay: number }

/** The least delay v2 allows between visibility checks. */
const delayMs = 100

/** Where approval buttons point assistive technology while they wait, so the wait says why. */
const waitingId = 'airlock-guard-waiting'

/**
 * Watches `target` with IntersectionObserver v2 while `active`, and tells `dwell` what it sees. A floating
 * card must be on screen whole; an embedded one is part of the page and may be taller than the screen
 * (`partly`): the part on screen must still be unoccluded, opaque and untransformed. Inactive (closed), the
 * card is out of sight, so opening it starts the count again.
 */
export function useSight(
  target: RefObject<Element | null>,
  active: boolean,
  partly: boolean,
  dwell: Dwell.Dwell,
): void {
  useEffect(() => {
    const element = target.current
    if (!active || !element) return dwell.saw('pending')
    if (typeof IntersectionObserver === 'undefined' || !('isVisible' in IntersectionObserverEntry.prototype))
      return dwell.saw('unverifiable')
    const init: Init = { threshold: partly ? 0 : 1, trackVisibility: true, delay: delayMs }
    const observer = new IntersectionObserver((entries) => {
      const entry = entries.at(-1) as Entry | undefined
      dwell.saw(entry?.isIntersecting && entry.isVisible ? 'visible' : 'hidden')
    }, init)
    observer.observe(element)
    return () => observer.disconnect()
  }, [target, active, partly, dwell])
}

function useGuard() {
  const dwell = useContext(GuardContext)
  const sight = useSyncExternalStore(dwell.subscribe, dwell.sight, dwell.sight)
  return { dwell, sight }
}

/**
 * Whether the approval shown here is armed (`Dwell.ts`). The count starts when the button mounts and again
 * whenever `approval` changes, in the very render that shows the new one; a timer renders again once it arms.
 */
function useArmed(approval: unknown) {
  const { dwell, sight } = useGuard()
  const [shown, setShown] = useState(() => ({ approval, at: dwell.clock.now() }))
  let shownAt = shown.at
  if (!Object.is(shown.approval, approval)) {
    shownAt = dwell.clock.now()
    setShown({ approval, at: shownAt })
  }
  const armsAt = Dwell.armsAt(sight, shownAt)
  // Each wake renders and looks again: a timer may fire a fraction of a millisecond early.
  const [woken, wake] = useReducer((count: number) => count + 1, 0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `woken` re-arms the timer after an early wake.
  useEffect(() => {
    const wait = armsAt === undefined ? 0 : armsAt - dwell.clock.now()
    if (wait <= 0) return
    const timer = dwell.clock.setTimeout(wake, Math.ceil(wait))
    return () => dwell.clock.clearTimeout(timer)
  }, [armsAt, dwell, woken])
  return { armed: armsAt !== undefined && dwell.clock.now() >= armsAt, check: () => dwell.armed(shownAt) }
}

type ApproveButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /**
   * What the button approves, when one view shows one request after another (the next transaction of a
   * queue): a new value starts the wait again, as showing the button does.
   */
  approval?: unknown
}

/**
 * A button that approves something: disabled until the card has been in sight, and this approval shown, for
 * 500 ms (`Dwell.ts`). A click is checked again as it lands, so one that beats the render that disables the
 * button (a decoy lifted that instant) approves nothing either.
 */
export function ApproveButton({ approval, onClick, ...props }: ApproveButtonProps) {
  const { armed, check } = useArmed(approval)
  const waiting = !armed && !props.disabled
  const describedBy = [props['aria-describedby'], waiting ? waitingId : undefined].filter(Boolean).join(' ')
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    if (!check()) return event.preventDefault()
    onClick?.(event)
  }
  return (
    <button
      type="button"
      {...props}
      aria-describedby={describedBy || undefined}
      disabled={props.disabled || !armed}
      onClick={click}
    />
  )
}

/** Why approval buttons wait, for assistive technology: hidden, so the wait shifts no layout. */
export function GuardWaiting() {
  return (
    <span id={waitingId} hidden>
      {texts.guard.waiting}
    </span>
  )
}

/**
 * Shown while the guard cannot see the card: says so, and offers the approval window. `question` is what
 * that window asks; `onChoice` runs with the visitor's choice.
 */
export function Unverified({
  question,
  onChoice,
}: {
  question: () => Approval.Question
  onChoice: (id: string) => void
}) {
  const { visibility } = useGuard().sight
  const [error, setError] = useState(false)
  if (visibility !== 'hidden' && visibility !== 'unverifiable') return null
  const open = () => {
    setError(false)
    Approval.ask(question()).then(
      (id) => id !== undefined && onChoice(id),
      () => setError(true),
    )
  }
  return (
    <div className="notice" role="status">
      <p>{texts.guard.unverified}</p>
      <button type="button" className="button button-secondary" onClick={open}>
        {texts.guard.continueInWindow}
      </button>
      {error && (
        <p className="error-text" role="alert">
          {texts.guard.windowBlocked}
        </p>
      )}
    </div>
  )
}
