import { type KeyboardEvent, lazy, type ReactNode, Suspense } from 'react'
import type * as Api from '../../api/Api.ts'
import { nameOf } from '../../connectors/embedded/naming.ts'
import { embeddedTexts } from '../../connectors/embedded/texts.ts'
import type {
  AccountSlice as EmbeddedSlice,
  AccountUi as EmbeddedUi,
} from '../../connectors/embedded/views.ts'
import type { PairingSlice, PairingUi } from '../../connectors/walletconnect/types.ts'
import type { AccountInfo as CoreAccountInfo, CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { truncateAddress } from '../../shared/format.ts'
import type { RecentSend, RecentSendsSlice, RecentSwapsSlice } from '../../shared/RecentSend.ts'
import { texts } from '../../shared/texts.ts'
import { ChoiceIcon } from '../../shared/ui/ChoiceIcon.tsx'
import { ExternalIcon } from '../../shared/ui/linkIcons.tsx'
import { SkeletonIcon, SkeletonLines, SkeletonText } from '../../shared/ui/Skeleton.tsx'
import type { NetworksSlice, NetworksUi } from '../networks/types.ts'
import { Actions } from './Actions.tsx'
import type { AccountUi, BalanceFields, TokenRow } from './Balances.ts'
import { Header } from './Header.tsx'
import { isTab, type Tab, type TabsSlice, type TabsUi, tabAfter, tabs } from './tabs.ts'
import { tabTexts } from './texts.ts'

// Each tab but Tokens (shown first) is a chunk of its own, loaded when the visitor opens it.
const NftsTab = lazy(() => import('./NftsTab.tsx'))
const ActivityTab = lazy(() => import('./ActivityTab.tsx'))

/** The Receive, Send, Swap and Buy features' actions, when the host left them on. */
type ReceiveUi = {
  showOnramp?: (() => void) | undefined
  onrampPurchases?:
    | ((account: { address: string; chainId: string }) => Promise<Api.HistoryItem[]>)
    | undefined
  showReceive?: (() => void) | undefined
  showSend?: (() => void) | undefined
  showSwap?: (() => void) | undefined
  showRegisterName?: (() => void) | undefined
}

// The balance fields are there once the feature's logic has loaded.
type AccountInfo = CoreAccountInfo & Partial<BalanceFields>

/** The connected account: address, native balance, its tabs, Receive, network, explorer link, Disconnect. */
export default function Account({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot<AccountInfo> &
    Partial<PairingSlice> &
    Partial<TabsSlice> &
    Partial<RecentSendsSlice> &
    Partial<RecentSwapsSlice> &
    Partial<EmbeddedSlice> &
    Partial<NetworksSlice>
  ui: CoreUi &
    AccountUi &
    Partial<NetworksUi> &
    Partial<PairingUi> &
    Partial<TabsUi> &
    ReceiveUi &
    Partial<EmbeddedUi>
}) {
  const { account } = snapshot
  if (!account) return <div className="view" />
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(account.address)
      ui.copied(true)
    } catch {
      ui.copied(false)
    }
  }
  const networkRow = (
    <>
      <span className="network-dot" aria-hidden="true" />
      <span className="row-label">{account.network?.name ?? account.chainId}</span>
    </>
  )
  return (
    <div className="view">
      <Header account={account} ui={ui} onCopy={copy}>
        <Actions order={snapshot.walletFeatures} namespace={account.namespace} ui={ui} />
      </Header>
      {account.namespace === 'eip155' && snapshot.unsupportedNetwork && (
        <p className="notice" role="status" data-testid="unsupported-chain-notice">
          {texts.unsupportedChain.stays(snapshot.unsupportedNetwork)}
        </p>
      )}
      <Tabs
        account={account}
        shown={snapshot.accountTabs ?? tabs}
        current={isTab(snapshot.accountTab) ? snapshot.accountTab : 'tokens'}
        recent={[...(snapshot.sends?.recent ?? []), ...(snapshot.swapped?.recent ?? [])].sort(
          (a, b) => b.time - a.time,
        )}
        ui={ui}
      />
      <p className="label">{texts.account.network}</p>
      {/* A button only where the visitor may switch networks (the host's enableNetworkSwitch). */}
      {'showNetworks' in ui ? (
        <button type="button" className="row" data-testid="account-network" onClick={ui.showNetworks}>
          {networkRow}
        </button>
      ) : (
        <p className="row" data-testid="account-network">
          {networkRow}
        </p>
      )}
      {account.explorerUrl && (
        <a className="row" href={account.explorerUrl} target="_blank" rel="noopener noreferrer">
          <span className="row-label">{texts.account.explorer}</span>
          <span className="sr-only"> {texts.account.newTab}</span>
          <ExternalIcon />
        </a>
      )}
      {snapshot.otherAccounts.length > 0 && (
        <OtherAccounts
          accounts={snapshot.otherAccounts}
          onUse={(namespace) => {
            ui.showAccount(namespace)
            focusAccount()
          }}
        />
      )}
      {/* Names are EVM's (docs/behaviour.md#account); an account with a name has it in the header already. */}
      {'showRegisterName' in ui && account.namespace === 'eip155' && !account.profileName && (
        <button type="button" className="row" onClick={() => ui.showRegisterName?.()}>
          <span className="row-label">{tabTexts.chooseName}</span>
        </button>
      )}
      {/* Smart sessions are the embedded wallet's (its smart accounts hold them). */}
      {'showSessions' in ui && snapshot.embeddedWallet?.signedIn && account.namespace === 'eip155' && (
        <button type="button" className="row" onClick={() => ui.showSessions?.()}>
          <span className="row-label">{tabTexts.sessions}</span>
        </button>
      )}
      {snapshot.embeddedWallet?.signedIn && (
        <button type="button" className="row" onClick={() => ui.showWalletSettings?.()}>
          <span className="row-label">
            {embeddedTexts.settingsRow(nameOf(snapshot.embeddedWallet.user ?? {}))}
          </span>
        </button>
      )}
      {snapshot.sessionKeeping === 'offer' && (
        <div className="notice" role="status">
          <p>{texts.walletConnect.notKept}</p>
          <button type="button" className="button button-secondary" onClick={() => ui.keepSession?.()}>
            {texts.walletConnect.keep}
          </button>
        </div>
      )}
      {snapshot.otherAccounts.length === 0 ? (
        <button type="button" className="row row-danger" onClick={() => void ui.disconnect()}>
          <span className="row-label">{texts.account.disconnect}</span>
        </button>
      ) : (
        // With several accounts, Disconnect says which: this one (the others stay), or all of them.
        <>
          <button
            type="button"
            className="row row-danger"
            onClick={() => void ui.disconnect('account').then(focusAccount)}
          >
            <span className="row-label">
              {tabTexts.disconnectAccount(texts.namespaces[account.namespace])}
            </span>
          </button>
          <button type="button" className="row row-danger" onClick={() => void ui.disconnect()}>
            <span className="row-label">{tabTexts.disconnectAll}</span>
          </button>
        </>
      )}
    </div>
  )
}

/**
 * Puts focus on the account now shown, after the row that was clicked went away with the account it named
 * (keyboard users would otherwise start again from the top of the page).
 */
function focusAccount() {
  requestAnimationFrame(() => document.getElementById('account-header-title')?.focus())
}

/** A list under a heading that names it, for screen readers too. */
function Section({
  id,
  title,
  children,
  testId,
  hiddenTitle = false,
}: {
  id: string
  title: string
  children: ReactNode
  testId?: string
  /** Named for screen readers only (the tab above says it already). */
  hiddenTitle?: boolean
}) {
  return (
    <section aria-labelledby={id}>
      <h2 className={hiddenTitle ? 'sr-only' : 'label'} id={id}>
        {title}
      </h2>
      <ul className="plain-list" data-testid={testId}>
        {children}
      </ul>
    </section>
  )
}

/** The other connected namespaces' accounts; choosing one shows it here, without reconnecting anything. */
function OtherAccounts({
  accounts,
  onUse,
}: {
  accounts: AccountInfo[]
  onUse(namespace: CoreAccountInfo['namespace']): void
}) {
  return (
    <Section id="also-connected" title={texts.account.alsoConnected}>
      {accounts.map((account) => (
        <li key={account.namespace} title={account.address}>
          <button
            type="button"
            className="row other-account"
            aria-label={`${tabTexts.showAccount(texts.namespaces[account.namespace])}: ${account.address}`}
            onClick={() => onUse(account.namespace)}
          >
            <span className="tag">{texts.namespaces[account.namespace]}</span>
            <span aria-hidden="true">{truncateAddress(account.address)}</span>
            <span className="muted">{account.network?.name ?? account.chainId}</span>
          </button>
        </li>
      ))}
    </Section>
  )
}

const tabLabels: Record<Tab, string> = {
  tokens: tabTexts.tokens,
  nfts: tabTexts.nfts,
  activity: tabTexts.activity,
}

/** The account's tabs, as the WAI-ARIA tabs pattern: arrow keys (and Home, End) move and select. */
function Tabs({
  account,
  shown,
  current,
  recent,
  ui,
}: {
  account: AccountInfo
  shown: readonly Tab[]
  current: Tab
  /** The Send feature's sends of this page load, when it is on. */
  recent?: readonly RecentSend[] | undefined
  ui: Partial<TabsUi> & ReceiveUi
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabAfter(current, event.key, shown)
    if (!next) return
    event.preventDefault()
    ui.selectTab?.(next)
    event.currentTarget.querySelector<HTMLElement>(`#account-tab-${next}`)?.focus()
  }
  const ref = { address: account.address, chainId: account.chainId }
  return (
    <>
      <div className="tabs" role="tablist" aria-label={tabTexts.label} onKeyDown={onKeyDown}>
        {shown.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`account-tab-${tab}`}
            className="tab"
            aria-selected={tab === current}
            aria-controls={`account-panel-${tab}`}
            tabIndex={tab === current ? 0 : -1}
            onClick={() => ui.selectTab?.(tab)}
          >
            {tabLabels[tab]}
          </button>
        ))}
      </div>
      <div
        className="tab-panel"
        role="tabpanel"
        id={`account-panel-${current}`}
        aria-labelledby={`account-tab-${current}`}
        aria-busy={current === 'tokens' && (account.holdingsLoading ?? false)}
      >
        {current === 'tokens' && (
          <Tokens tokens={account.tokens ?? []} loading={account.holdingsLoading ?? false} />
        )}
        {current !== 'tokens' && ui.history && ui.nfts && (
          <Suspense fallback={<div className="view-loading" aria-busy="true" />}>
            {current === 'nfts' ? (
              // Keyed by account: another account's pages start from nothing, and a late answer for the old
              // one has nowhere to land.
              <NftsTab
                key={`${ref.chainId} ${ref.address}`}
                account={ref}
                evm={account.namespace === 'eip155'}
                network={account.network}
                nfts={ui.nfts}
              />
            ) : (
              <ActivityTab
                key={`${ref.chainId} ${ref.address}`}
                account={ref}
                recent={recent}
                ui={{ history: withPurchases(ui.history, ui), namesOf: ui.namesOf }}
              />
            )}
          </Suspense>
        )}
      </div>
    </>
  )
}

/**
 * Activity's pages, the first with the account's on-ramp purchases when Buy is on: read fresh each time
 * (never from a cache), each in place of the chain's own item for its delivery (same transaction).
 */
function withPurchases(history: TabsUi['history'], ui: ReceiveUi): TabsUi['history'] {
  if (!('onrampPurchases' in ui)) return history
  return async (account, cursor) => {
    const [page, bought] = await Promise.all([
      history(account, cursor),
      cursor ? [] : (ui.onrampPurchases?.(account).catch(() => []) ?? []),
    ])
    if (page.error || bought.length === 0) return page
    const ids = new Set(bought.map((item) => item.id.toLowerCase()))
    const data = [...bought, ...page.data.filter((item) => !ids.has(item.id.toLowerCase()))].sort((a, b) =>
      b.metadata.minedAt.localeCompare(a.metadata.minedAt),
    )
    return { ...page, data }
  }
}

/** Token rows held while the balances load: two, the most a visitor sees before the list scrolls on. */
const placeholderRows = 2

function Tokens({ tokens, loading }: { tokens: TokenRow[]; loading: boolean }) {
  if (loading)
    return (
      <ul className="plain-list" aria-hidden="true" data-testid="account-tokens-placeholder">
        {Array.from({ length: placeholderRows }, (_, index) => (
          // Each row as a token's: its icon, its symbol, and its amount over its value.
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are alike and never move.
          <li key={index} className="token">
            <SkeletonIcon size={28} />
            <span className="token-name">
              <SkeletonText width="3em" />
            </span>
            <SkeletonLines className="token-amount" under="muted" widths={['7em', '4em']} />
          </li>
        ))}
      </ul>
    )
  if (tokens.length === 0) return <p className="muted">{tabTexts.noTokens}</p>
  return (
    <Section id="account-tokens" title={texts.account.tokens} testId="account-tokens" hiddenTitle>
      {tokens.map((token) => (
        <li key={token.symbol + token.name} className="token">
          {/* The API's icon for the token, else (or where it fails to load) its generated monogram. */}
          <ChoiceIcon
            icon={{ url: token.iconUrl || undefined, seed: `${token.symbol}:${token.name}` }}
            name={token.symbol}
            size={28}
          />
          <span className="token-name" title={token.name}>
            {token.symbol}
          </span>
          <span className="token-amount">
            <span data-testid="token-amount">{`${token.amount} ${token.symbol}`}</span>
            <span className="muted">{token.fiat}</span>
          </span>
        </li>
      ))}
    </Section>
  )
}
