/**
 * The Account view's tabs (docs/behaviour.md#views: Tokens, NFTs, Activity; Activity only while the host
 * leaves `history` on) and how the keyboard moves between them: the arrow keys go to the neighbour,
 * wrapping at the ends, Home and End to the first and last.
 */
import type * as Api from '../../api/Api.ts'

export const tabs = ['tokens', 'nfts', 'activity'] as const
export type Tab = (typeof tabs)[number]

/** The tabs shown: all of them, or without Activity when the host switched `history` off. */
export function tabsOf(history: boolean): readonly Tab[] {
  return history ? tabs : tabs.filter((tab) => tab !== 'activity')
}

/** The tab a key leads to from `current` among `shown`; undefined for a key that does not move. */
export function tabAfter(current: Tab, key: string, shown: readonly Tab[] = tabs): Tab | undefined {
  const index = shown.indexOf(current)
  const last = shown.length - 1
  const next =
    key === 'Home'
      ? 0
      : key === 'End'
        ? last
        : key === 'ArrowRight'
          ? (index + 1) % shown.length
          : key === 'ArrowLeft'
            ? (index - 1 + shown.length) % shown.length
            : undefined
  return next === undefined ? undefined : shown[next]
}

/** Whether a value the snapshot carries names a tab (the views fall back to Tokens otherwise). */
export function isTab(value: unknown): value is Tab {
  return (tabs as readonly unknown[]).includes(value)
}

/** An account as the tabs read it: whose, and on which chain (CAIP-2). */
export type AccountRef = { address: string; chainId: string }

/** What the feature adds to the snapshot for its tabs. */
export type TabsSlice = {
  /** The tab shown; it stays while the modal closes and opens again. */
  accountTab: Tab
  /** The tabs there are (see {@link tabsOf}). */
  accountTabs: readonly Tab[]
}

/** The tabs' actions and the API reads they page through. */
export type TabsUi = {
  selectTab(tab: Tab): void
  /** A page of the account's history; never throws (a failure is an empty page with its `error`). */
  history(account: AccountRef, cursor?: string | null): Promise<Api.HistoryPage>
  nfts(account: AccountRef, cursor?: string | null): Promise<Api.NftPage>
  /**
   * The names of EVM addresses that have one, by address in lower case; each address is asked of the API
   * at most once in 5 minutes (docs/behaviour.md#constants), and one it could not answer is left out. Never throws.
   */
  namesOf(addresses: readonly string[]): Promise<Readonly<Record<string, string>>>
}
