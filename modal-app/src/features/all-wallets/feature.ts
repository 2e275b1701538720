/**
 * The wallet registry: Connect's featured and recommended wallets and the AllWallets view (search, pages,
 * keyboard grid). Its wallets connect over WalletConnect, so it is on with WalletConnect, unless the host
 * switches `allWallets` off.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import { AllWalletsRow, FeaturedRows, GetWalletRows, RecommendedRows } from './RegistryRows.tsx'

export type Options = {
  /** Loads a registry image into the cache. @default an `Image` that loads it */
  preload?: ((url: string) => Promise<void>) | undefined
}

export function allWallets(options: Options = {}): Feature {
  return {
    id: 'allWallets',
    switch: 'allWallets',
    views: [
      {
        name: 'AllWallets',
        title: () => texts.walletConnect.allWallets,
        component: lazy(() => import('./AllWallets.tsx')),
      },
    ],
    connectRows: {
      featured: FeaturedRows,
      recommended: RecommendedRows,
      last: AllWalletsRow,
      getWallet: GetWalletRows,
    },
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel, options),
  }
}
