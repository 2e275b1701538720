/**
 * Pay (docs/behaviour.md §1, off by default): a dApp asks the visitor for a payment with `airlock.pay({ to, amount,
 * asset, chain })`; the visitor sees it, buys a shortfall through Buy, and confirms in their wallet; the
 * dApp's promise resolves with the transaction's hash once the chain confirms it. `features/index.ts`
 * includes it only when the host switched `features.pay` on.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'

export function pay(): Feature {
  return {
    id: 'pay',
    hostMethods: ['pay'],
    views: [
      {
        name: 'Pay',
        title: () => 'Pay',
        component: lazy(() => import('./Pay.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
