/**
 * Buy (the product's on-ramp, docs/behaviour.md §7): crypto for fiat through a provider's hosted checkout, which opens in a window of
 * its own; the API lists the options, quotes and signs the checkout URL, and the purchase is followed until
 * the tokens are on chain. The host switches it with `features.onramp`; its screens are the Account view's
 * as far as the host can tell.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function onramp(): Feature {
  return {
    id: 'onramp',
    switch: 'onramp',
    views: [
      {
        name: 'Onramp',
        title: () => texts.onramp.title,
        component: lazy(() => import('./Buy.tsx')),
        public: 'Account',
      },
      {
        name: 'OnrampStatus',
        title: () => texts.onramp.statusTitle,
        component: lazy(() => import('./BuyStatus.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
