/**
 * Swap: one token for another on the account's EVM chain, at the pools' price the API quotes, after a
 * review that simulates the approval and the swap; signed by the connected wallet. The host switches it
 * with `features.swaps`; its screens are the Account view's as far as the host can tell.
 */
import { type ComponentType, lazy } from 'react'
import type { Feature, ViewProps } from '../../core/Feature.ts'
import { unavailable } from '../../core/Region.ts'
import { texts } from '../../shared/texts.ts'

export function swaps(restricted = false): Feature {
  // In a restricted region every view of the feature says so instead (docs/behaviour.md §9).
  const view = (component: ComponentType<ViewProps>) =>
    restricted ? unavailable<ViewProps>(async () => (await import('./texts.ts')).swapTexts.region) : component
  return {
    id: 'swaps',
    switch: 'swaps',
    views: [
      {
        name: 'Swap',
        title: () => texts.swap.title,
        component: view(lazy(() => import('./Swap.tsx'))),
        public: 'Account',
      },
      {
        name: 'SwapPreview',
        title: () => texts.swap.previewTitle,
        component: view(lazy(() => import('./SwapPreview.tsx'))),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
