/**
 * Networks: the list to switch to, and UnsupportedChain when the wallet sits on a network not configured.
 * With `enableNetworkSwitch: false` the visitor cannot switch in the modal: no list, no badge to open it.
 */
import { lazy } from 'react'
import type { Config } from '../../core/Config.ts'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function networks(config: Pick<Config, 'enableNetworkSwitch'>): Feature {
  const switchable = config.enableNetworkSwitch !== false
  return {
    id: 'networks',
    canOpen: (view) => (view === 'Networks' || view === 'UnsupportedChain' ? switchable : undefined),
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
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel, switchable),
  }
}
