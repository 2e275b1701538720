/** The views that are not in the first chunk, loaded on first use; Account is preloaded while idle. */
import { lazy } from 'react'

const loadAccount = () => import('../views/Account.tsx')

export const Account = lazy(loadAccount)
export const Networks = lazy(() => import('../views/Networks.tsx'))
export const UnsupportedChain = lazy(() => import('../views/UnsupportedChain.tsx'))
export const AllWallets = lazy(() => import('../views/AllWallets.tsx'))
export const ConnectingWalletConnect = lazy(() => import('../views/ConnectingWalletConnect.tsx'))
export const SignIn = lazy(() => import('../views/SignIn.tsx'))

/**
 * Fetches, while idle, what the first connect needs: the Account chunk and the EVM checksum (keccak), so a
 * connect shows the account without a wait.
 */
export function preloadAccount(): void {
  const ignore = () => {
    // Offline or a stale deployment; the real use reports it if it is actually needed.
  }
  loadAccount().catch(ignore)
  import('@airlock/bridge-protocol/Address').catch(ignore)
}
