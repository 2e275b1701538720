/**
 * Receive: the account's address as a QR code drawn here (no service sees it), to copy, with the networks
 * it works on and which assets may be sent to it. The host switches it with `features.receive`.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function receive(): Feature {
  return {
    id: 'receive',
    switch: 'receive',
    views: [
      {
        name: 'Receive',
        title: () => texts.receive.title,
        component: lazy(() => import('./Receive.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
