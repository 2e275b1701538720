/**
 * The few icons the card's frame uses, inline so they cost no request; those only lazily loaded views use are
 * in `linkIcons.tsx`, out of the first chunk. All decorative: buttons carry labels.
 */

import type { ReactNode } from 'react'

/** `directional`: it points along the reading direction, so right-to-left languages mirror it. */
export function Icon({ children, directional }: { children: ReactNode; directional?: boolean }) {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      className={directional ? 'directional' : undefined}
    >
      {children}
    </svg>
  )
}

export function CloseIcon() {
  return (
    <Icon>
      <path
        d="M3.5 3.5l9 9m0-9l-9 9"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        fill="none"
      />
    </Icon>
  )
}

export function BackIcon() {
  return (
    <Icon directional>
      <path d="M10 3L5 8l5 5" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" fill="none" />
    </Icon>
  )
}

export function CheckIcon() {
  return (
    <Icon>
      <path d="M3 8.5l3 3 7-7" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" fill="none" />
    </Icon>
  )
}
