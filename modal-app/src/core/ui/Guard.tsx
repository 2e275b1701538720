/**
 * The clickjacking guard. A page that frames the modal can make it nearly transparent or draw a decoy over
 * it, so that a click meant for the decoy approves something in the modal. IntersectionObserver v2
 * (`trackVisibility`) tells whether the card is really on screen: unoccluded, opaque, untransformed. Until it
 * says so, approval buttons stay disabled; where it cannot say so (a browser without v2, a covered frame),
 * the view offers to continue in a window of the modal's own origin (`approval/Approval.ts`).
 */
import {
  type ButtonHTMLAttributes,
  createContext,
  type RefObject,
  useContext,
  useEffect,
  useState,
} from 'react'
import { texts } from '../../shared/texts.ts'
import * as Approval from '../approval/Approval.ts'

export type Visibility = 'pending' | 'visible' | 'hidden' | 'unverifiable'

/** The card's visibility as the guard last saw it; views read it through {@link useGuard}. */
export const GuardContext = createContext<Visibility>('pending')

// IntersectionObserver v2 is not in TypeScript's DOM library yet.
type Entry = IntersectionObserverEntry & { isVisible?: boolean }
type Init = IntersectionObserverInit & { trackVisibility: boolean; delay: number }

/** The least delay v2 allows between visibility checks. */
const delayMs = 100

/**
 * Watches `target` with IntersectionObserver v2 while `active`. A floating card must be on screen whole; an
 * embedded one is part of the page and may be taller than the screen (`partly`): the part on screen must
 * still be unoccluded, opaque and untransformed.
 */
export function useVisibility(
  target: RefObject<Element | null>,
  active: boolean,
  partly = false,
): Visibility {
  const [visibility, setVisibility] = useState<Visibility>('pending')
  useEffect(() => {
    const element = target.current
    if (!active || !element) return setVisibility('pending')
    if (typeof IntersectionObserver === 'undefined' || !('isVisible' in IntersectionObserverEntry.prototype))
      return setVisibility('unverifiable')
    const init: Init = { threshold: partly ? 0 : 1, trackVisibility: true, delay: delayMs }
    const observer = new IntersectionObserver((entries) => {
      const entry = entries.at(-1) as Entry | undefined
      setVisibility(entry?.isIntersecting && entry.isVisible ? 'visible' : 'hidden')
    }, init)
    observer.observe(element)
    return () => observer.disconnect()
  }, [target, active, partly])
  return visibility
}

/** Whether approvals may be clicked here, and the way round when they may not. */
function useGuard() {
  const visibility = useContext(GuardContext)
  return {
    verified: visibility === 'visible',
    blocked: visibility === 'hidden' || visibility === 'unverifiable',
  }
}

/** A button that approves something: disabled until the guard has seen the card visible. */
export function ApproveButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  const { verified } = useGuard()
  return <button type="button" {...props} disabled={props.disabled || !verified} />
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
  const { blocked } = useGuard()
  const [error, setError] = useState(false)
  if (!blocked) return null
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
