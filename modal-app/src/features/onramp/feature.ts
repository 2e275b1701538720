/**
 * Buy (the product's on-ramp, docs/behaviour.md §7): crypto for fiat through a provider's hosted checkout, which opens in a window of
 * its own; the API lists the options, quotes and signs the checkout URL, and the purchase is followed until
 * the tokens are on chain. The host switches it with `features.onramp`; its screens are the Account view's
 * as far as the host can tell.
 */
import { type ComponentType, lazy } from 'react'
import type { Feature, ViewProps } from '../../core/Feature.ts'
import { unavailable } from '../../core/Region.ts'
import { texts } from '../../shared/texts.ts'

export function onramp(restricted = false): Feature {
  // In a restricted region every view of the feature says so instead (docs/behaviour.md §9).
  const view = (component: ComponentType<ViewProps>) =>
    restricted
      ? unavailable<ViewProps>(async () => (await import('./texts.ts')).onrampTexts.region)
      : component
  return {
    id: 'onramp',
    switch: 'onramp',
    views: [
      {
        name: 'Onramp',
        title: () => texts.onramp.title,
        component: view(lazy(() => import('./Buy.tsx'))),
        public: 'Account',
      },
      {
        name: 'OnrampStatus',
        title: () => texts.onramp.statusTitle,
        component: view(lazy(() => import('./BuyStatus.tsx'))),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
