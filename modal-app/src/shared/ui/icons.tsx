/** The few icons the card uses, inline so they cost no request. All decorative: buttons carry labels. */

import type { ReactNode } from 'react'

/** `directional`: it points along the reading direction, so right-to-left languages mirror it. */
function Icon({ children, directional }: { children: ReactNode; directional?: boolean }) {
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

export function CopyIcon() {
  return (
    <Icon>
      <rect x="5" y="5" width="8" height="8" rx="1.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
      <path d="M3 10.5V4a1 1 0 0 1 1-1h6.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
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

export function ExternalIcon() {
  return (
    <Icon>
      <path d="M9 3h4v4M13 3L7 9M11 9.5V13H3V5h3.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
    </Icon>
  )
}
