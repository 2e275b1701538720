/**
 * Smart sessions (docs/behaviour.md §1 `smartSessions`, on unless the host switches it off): ERC-7715
 * `wallet_grantPermissions` / `wallet_revokePermissions` for the embedded wallet's smart accounts, enforced on
 * chain by the account's session keys, and Account's list of active sessions with Revoke.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { sessionTitleTexts } from './titleTexts.ts'

export function smartSessions(): Feature {
  return {
    id: 'smartSessions',
    switch: 'smartSessions',
    views: [
      {
        name: 'GrantPermissions',
        title: () => sessionTitleTexts.grantTitle,
        component: lazy(() => import('./GrantPermissions.tsx')),
        public: 'Account',
      },
      {
        name: 'Sessions',
        title: () => sessionTitleTexts.listTitle,
        component: lazy(() => import('./Sessions.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
