/**
 * The Account view: the connected account, its tabs (Tokens, NFTs, Activity), copy, explorer link,
 * disconnect.
 */
import { lazy } from 'react'
import type { Feature } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import type * as Balances from './Balances.ts'

const loadView = () => import('./Account.tsx')

/** Fetches the Account chunk while idle, so the first connect shows the account without a wait. */
export const preload = () => loadView()

export function account(
  options: { loadChainClient?: (() => Promise<Balances.ChainClient>) | undefined } = {},
): Feature {
  const loadChainClient = options.loadChainClient ?? (() => import('./chainClient.ts'))
  return {
    id: 'account',
    views: [{ name: 'Account', title: () => texts.account.title, component: lazy(loadView) }],
    load: async (kernel) => (await import('./runtime.ts')).setup(kernel, loadChainClient),
  }
}
