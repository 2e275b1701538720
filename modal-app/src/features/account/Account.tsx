import type { ReactNode } from 'react'
import type { PairingSlice, PairingUi } from '../../connectors/walletconnect/types.ts'
import type { AccountInfo as CoreAccountInfo, CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import { CopyIcon, ExternalIcon } from '../../shared/ui/icons.tsx'
import type { NetworksUi } from '../networks/types.ts'
import type { AccountUi, BalanceFields, TokenRow } from './Balances.ts'

// The balance fields are there once the feature's logic has loaded.
type AccountInfo = CoreAccountInfo & Partial<BalanceFields>

/** The connected account: address, native balance, tokens, network, explorer link, Disconnect. */
export default function Account({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot<AccountInfo> & Partial<PairingSlice>
  ui: CoreUi & AccountUi & NetworksUi & Partial<PairingUi>
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
  return (
    <div className="view">
      <div className="account">
        <img className="wallet-icon-large" src={account.wallet.icon} alt="" width={56} height={56} />
        <div className="address-line">
          {/* Shown shortened; the full address is in the title, data-address and for screen readers. */}
          <p className="address" title={account.address}>
            <span data-testid="account-address" data-address={account.address} aria-hidden="true">
              {truncateAddress(account.address)}
            </span>
            <span className="sr-only">{account.address}</span>
          </p>
          <button type="button" className="icon-button" aria-label={texts.account.copy} onClick={copy}>
            <CopyIcon />
          </button>
        </div>
        {account.balance && (
          <p className="balance" data-testid="account-balance">
            {account.balance}
          </p>
        )}
      </div>
      {account.tokens && account.tokens.length > 0 && <Tokens tokens={account.tokens} />}
      <p className="label">{texts.account.network}</p>
      <button type="button" className="row" data-testid="account-network" onClick={() => ui.showNetworks()}>
        <span className="network-dot" aria-hidden="true" />
        <span className="row-label">{account.network?.name ?? account.chainId}</span>
      </button>
      {account.explorerUrl && (
        <a className="row" href={account.explorerUrl} target="_blank" rel="noopener noreferrer">
          <span className="row-label">{texts.account.explorer}</span>
          <span className="sr-only"> {texts.account.newTab}</span>
          <ExternalIcon />
        </a>
      )}
      {snapshot.otherAccounts.length > 0 && <OtherAccounts accounts={snapshot.otherAccounts} />}
      {snapshot.sessionKeeping === 'offer' && (
        <div className="notice" role="status">
          <p>{texts.walletConnect.notKept}</p>
          <button type="button" className="button button-secondary" onClick={() => ui.keepSession?.()}>
            {texts.walletConnect.keep}
          </button>
        </div>
      )}
      <button type="button" className="row row-danger" onClick={() => void ui.disconnect()}>
        <span className="row-label">{texts.account.disconnect}</span>
      </button>
    </div>
  )
}

/** A list under a heading that names it, for screen readers too. */
function Section({
  id,
  title,
  children,
  testId,
}: {
  id: string
  title: string
  children: ReactNode
  testId?: string
}) {
  return (
    <section aria-labelledby={id}>
      <h2 className="label" id={id}>
        {title}
      </h2>
      <ul className="plain-list" data-testid={testId}>
        {children}
      </ul>
    </section>
  )
}

function OtherAccounts({ accounts }: { accounts: AccountInfo[] }) {
  return (
    <Section id="also-connected" title={texts.account.alsoConnected}>
      {accounts.map((account) => (
        <li key={account.namespace} className="other-account" title={account.address}>
          <span className="tag">{texts.namespaces[account.namespace]}</span>
          <span aria-hidden="true">{truncateAddress(account.address)}</span>
          <span className="sr-only">{account.address}</span>
          <span className="muted">{account.network?.name ?? account.chainId}</span>
        </li>
      ))}
    </Section>
  )
}

function Tokens({ tokens }: { tokens: TokenRow[] }) {
  return (
    <Section id="account-tokens" title={texts.account.tokens} testId="account-tokens">
      {tokens.map((token) => (
        <li key={token.symbol + token.name} className="token">
          {token.iconUrl ? (
            <img className="token-icon" src={token.iconUrl} alt="" width={28} height={28} />
          ) : (
            <span className="token-icon" aria-hidden="true" />
          )}
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
