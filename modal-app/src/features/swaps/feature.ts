/**
 * Swap: one token for another on the account's EVM chain, at the pools' price the API quotes, after a
 * review that simulates the approval and the swap; signed by the connected wallet. The host switches it
 * with `features.swaps`; its screens are the Account view's as far as the host can tell.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function swaps(): Feature {
  return {
    id: 'swaps',
    switch: 'swaps',
    views: [
      {
        name: 'Swap',
        title: () => texts.swap.title,
        component: lazy(() => import('./Swap.tsx')),
        public: 'Account',
      },
      {
        name: 'SwapTokens',
        title: () => texts.swap.tokensTitle,
        component: lazy(() => import('./SwapTokens.tsx')),
        public: 'Account',
      },
      {
        name: 'SwapPreview',
        title: () => texts.swap.previewTitle,
        component: lazy(() => import('./SwapPreview.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
