/**
 * EIP-5792 batches for every way of reaching a wallet: `wallet_getCapabilities`, `wallet_sendCalls`,
 * `wallet_getCallsStatus` and `wallet_showCallsStatus`, checked here and run by the wallet when it batches
 * (`Connector.batches`), else call by call. Always on: a dApp's batch must get an answer whatever the host
 * switched. The calls view belongs to Account as far as the host can tell.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { callsTitleTexts } from './titleTexts.ts'

export function calls(): Feature {
  return {
    id: 'calls',
    views: [
      {
        name: 'CallsStatus',
        title: () => callsTitleTexts.title,
        component: lazy(() => import('./CallsStatus.tsx')),
        public: 'Account',
      },
    ],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel),
  }
}
