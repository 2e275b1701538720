/** Keyboard helpers shared by the views: arrow keys move along a list, Tab stays inside the card. */
import type { KeyboardEvent } from 'react'

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** The elements Tab can reach inside `root`, in order. */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(focusable)].filter((element) => !element.closest('[inert]'))
}

/** ArrowUp/ArrowDown/Home/End move focus between the buttons of a list (put on the list element). */
export function onListKeyDown(event: KeyboardEvent<HTMLElement>): void {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End']
  if (!keys.includes(event.key)) return
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button:not([disabled])')]
  if (buttons.length === 0) return
  const index = buttons.indexOf(document.activeElement as HTMLElement)
  const last = buttons.length - 1
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? last
        : event.key === 'ArrowDown'
          ? index >= last
            ? 0
            : index + 1
          : index <= 0
            ? last
            : index - 1
  event.preventDefault()
  buttons[next]?.focus()
}

/** Keeps Tab and Shift+Tab cycling inside the card (the modal is aria-modal). */
export function trapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return
  const items = focusables(event.currentTarget)
  const first = items[0]
  const last = items[items.length - 1]
  if (!first || !last) {
    event.preventDefault()
    return
  }
  const active = document.activeElement
  if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
    event.preventDefault()
    first.focus()
  }
}
