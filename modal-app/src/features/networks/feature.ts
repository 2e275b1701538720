/** Networks: the list to switch to, and UnsupportedChain when the wallet sits on a network not configured. */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function networks(): Feature {
  return {
    id: 'networks',
    views: [
      {
        name: 'Networks',
        title: () => texts.networks.title,
        component: lazy(() => import('./Networks.tsx')),
      },
      {
        name: 'UnsupportedChain',
        title: () => texts.unsupportedChain.title,
        component: lazy(() => import('./UnsupportedChain.tsx')),
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
