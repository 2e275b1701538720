/**
 * Send: a token the account holds, to an address, after a preview that shows what the transaction does
 * (a simulation on EVM and Solana, the PSBT itself on Bitcoin), signed by the connected wallet. The host
 * switches it with `features.send`; its screens are the Account view's as far as the host can tell.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function send(): Feature {
  return {
    id: 'send',
    switch: 'send',
    views: [
      {
        name: 'Send',
        title: () => texts.send.title,
        component: lazy(() => import('./Send.tsx')),
        public: 'Account',
      },
      {
        name: 'SendPreview',
        title: () => texts.send.previewTitle,
        component: lazy(() => import('./SendPreview.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
