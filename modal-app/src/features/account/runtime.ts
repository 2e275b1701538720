/**
 * The account feature's logic: the balances (`Balances.ts`), the tab the visitor chose (kept while the
 * modal closes and opens again), the NFT opened in detail, and the API reads the tabs page through (the
 * Activity tab's counterparties' names from the same cache as the header's).
 */
import { isOn } from '@airlock/bridge-protocol/Features'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { texts } from '../../shared/texts.ts'
import * as Balances from './Balances.ts'
import { type Tab, type TabsSlice, type TabsUi, tabsOf } from './tabs.ts'

export function setup(kernel: Kernel, loadChainClient: () => Promise<Balances.ChainClient>): Runtime {
  // One cache of names for the header and the Activity tab's counterparties (5 minutes,
  // docs/behaviour.md#constants).
  const names = Balances.profiles({ api: kernel.api, now: kernel.now, changed: () => kernel.changed() })
  const balances = Balances.setup(kernel, loadChainClient, names)
  const reads = kernel.api
  let tab: Tab = 'tokens'
  const shown = tabsOf(isOn(kernel.config, 'history'))

  const ui: TabsUi = {
    selectTab(next) {
      if (next === tab || !shown.includes(next)) return
      tab = next
      kernel.changed()
    },
    async history({ address, chainId }, cursor) {
      if (!reads.history) return { data: [], next: null, error: texts.errors.transactionsUnavailable }
      return reads.history(address, { chainId, cursor })
    },
    async nfts({ address, chainId }, cursor) {
      if (!reads.nfts) throw new Error('This API client reads no NFTs.')
      return reads.nfts(address, { chainId, cursor })
    },
    async namesOf(addresses) {
      await Promise.all(addresses.map((address) => names.want(address)))
      const known = addresses.flatMap((address) => {
        const name = names.of(address).profileName
        return name ? [[address.toLowerCase(), name] as const] : []
      })
      return Object.fromEntries(known)
    },
  }

  return {
    ...balances,
    ui: { ...balances.ui, ...ui },
    snapshot: (): TabsSlice => ({ accountTab: tab, accountTabs: shown }),
  }
}
