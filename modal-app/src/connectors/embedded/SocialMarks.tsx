/**
 * The social providers' marks on Connect's buttons, drawn here as plain one-colour shapes in the text's
 * colour (each provider's guidelines allow its mark in one colour; none is recoloured, stretched or
 * combined with another). Loaded after Connect draws (Rows.tsx), in a box of the mark's size, so the
 * first chunk carries none of them and the buttons do not move when they arrive.
 */
import type { SocialProvider } from '@airlock/bridge-protocol/Features'
import type { ReactNode } from 'react'

const marks: Record<SocialProvider, ReactNode> = {
  // The G: an open ring and its bar.
  google: (
    <path
      d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3M12.5 12h7"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
    />
  ),
  // X: a broad stroke down to the right over a fine one up to the right.
  x: (
    <>
      <path d="M4 3.5h4.5l11.5 17h-4.5z" />
      <path d="M19.5 3.5L4.5 20.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </>
  ),
  // Discord's face: a rounded head with two eyes.
  discord: (
    <path
      fillRule="evenodd"
      d="M19 6.2a16 16 0 0 0-3.9-1.2l-.5 1a15 15 0 0 0-5.2 0l-.5-1A16 16 0 0 0 5 6.2c-2.4 3.6-3 7.1-2.7 10.6a16 16 0 0 0 4.9 2.5l1-1.6a10 10 0 0 1-1.6-.8l.4-.3a11.5 11.5 0 0 0 10 0l.4.3a10 10 0 0 1-1.6.8l1 1.6a16 16 0 0 0 4.9-2.5c.4-4-.7-7.5-2.7-10.6zM9 14.6c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2zm6 0c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2z"
    />
  ),
  // Farcaster's arch.
  farcaster: <path d="M5 4h14v16h-3.5v-7a3.5 3.5 0 0 0-7 0v7H5z" />,
  // GitHub's cat in its disc.
  github: (
    <path d="M12 2.5a9.5 9.5 0 0 0-3 18.5c.5.1.6-.2.6-.5v-1.7c-2.6.6-3.2-1.2-3.2-1.2-.4-1.1-1-1.4-1-1.4-.9-.6 0-.6 0-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.3 1.1 2.9.8.1-.6.3-1.1.6-1.3-2.1-.2-4.3-1-4.3-4.7 0-1 .4-1.9 1-2.6-.1-.2-.4-1.2.1-2.5 0 0 .8-.3 2.6 1a9 9 0 0 1 4.8 0c1.8-1.3 2.6-1 2.6-1 .5 1.3.2 2.3.1 2.5.6.7 1 1.6 1 2.6 0 3.7-2.2 4.5-4.4 4.7.4.3.7.9.7 1.8v2.7c0 .3.2.6.7.5A9.5 9.5 0 0 0 12 2.5z" />
  ),
  // Apple's apple and its leaf.
  apple: (
    <>
      <path d="M12 7.5c1.5-1 4.5-1.2 6 1.2-2.7 1.6-2.2 5.6.6 6.6-.8 2.4-2.4 4.7-4 4.7-1.2 0-1.6-.7-2.9-.7s-1.8.7-2.9.7C7 20 4 15.5 4 11.6 4 8.3 6.2 6.6 8.3 6.6c1.3 0 2.4.9 3.7.9z" />
      <path d="M12.5 6c0-1.8 1.3-3.3 3-3.5.1 1.9-1.3 3.4-3 3.5z" />
    </>
  ),
  // Facebook's f.
  facebook: (
    <path
      d="M15.5 4H14a3.5 3.5 0 0 0-3.5 3.5V21M7.5 10.5h7.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
    />
  ),
}

/** A provider's mark, decorative: the button names the provider. A provider without one keeps the box. */
export default function SocialMark({ provider }: { provider: string }) {
  return (
    <svg
      className="social-mark"
      viewBox="0 0 24 24"
      width={20}
      height={20}
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
      data-provider={provider}
    >
      {Object.hasOwn(marks, provider) && marks[provider as SocialProvider]}
    </svg>
  )
}
