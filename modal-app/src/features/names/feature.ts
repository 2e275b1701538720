/**
 * Names: the visitor registers a name under the project's suffix (`newcomer.airlock.id`), signed by the
 * account's wallet, after seeing whether it is free and what else is (docs/behaviour.md §2's RegisterAccountName and its
 * success view). EVM accounts only (docs/behaviour.md §9: names are eip155's). Resolution for Send is `shared/Names.ts`.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'

export function names(): Feature {
  return {
    id: 'names',
    views: [
      {
        name: 'RegisterAccountName',
        title: () => texts.names.title,
        component: lazy(() => import('./RegisterAccountName.tsx')),
        public: 'Account',
      },
      {
        name: 'RegisterAccountNameSuccess',
        title: () => texts.names.successTitle,
        component: lazy(() => import('./RegisterAccountNameSuccess.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
