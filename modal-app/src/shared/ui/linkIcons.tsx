/** The icons of addresses and links (copy, open elsewhere), which only lazily loaded views show. */

import { Icon } from './icons.tsx'

export function CopyIcon() {
  return (
    <Icon>
      <rect x="5" y="5" width="8" height="8" rx="1.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
      <path d="M3 10.5V4a1 1 0 0 1 1-1h6.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
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
