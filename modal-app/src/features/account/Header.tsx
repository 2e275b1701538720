/**
 * The top of the Account view: who the account is (avatar, name, address), where it is (network, explorer)
 * and what it holds (fiat total, native balance), with the account's actions below.
 */
import { type ReactNode, useState } from 'react'
import type { AccountInfo } from '../../core/Snapshot.ts'
import { truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import { Identicon } from '../../shared/ui/Identicon.tsx'
import { CopyIcon, ExternalIcon } from '../../shared/ui/linkIcons.tsx'
import { NetworkIcon } from '../../shared/ui/NetworkIcon.tsx'
import { SkeletonText } from '../../shared/ui/Skeleton.tsx'
import type { NetworksUi } from '../networks/types.ts'
import type { BalanceFields } from './Balances.ts'
import { headerTexts } from './texts.ts'

const avatarSize = 56

export type HeaderProps = {
  account: AccountInfo & Partial<BalanceFields>
  /**
   * Without `showNetworks` (the host switched network switching off), the network is named, not a button.
   * The actions are a proxy that has every name, so `in` tells whether a feature gave it.
   */
  ui: Partial<Pick<NetworksUi, 'showNetworks'>>
  /** Copies the address (and says so). */
  onCopy(): void
  /** The account's actions, below what it holds. */
  children?: ReactNode
}

/**
 * @example <Header account={account} ui={ui} onCopy={copy} />
 */
export function Header({ account, ui, onCopy, children }: HeaderProps) {
  const { address, explorerUrl, profileName } = account
  return (
    // Not a landmark of its own: the card is the region, this is its first heading.
    <div className="account-header">
      <div className="account-header-top">
        <Avatar account={account} />
        <div className="account-identity">
          {/* Focusable by script: where the clicked row goes away (another account shown), focus lands here. */}
          <h2 id="account-header-title" tabIndex={-1} className={profileName ? 'account-name' : 'sr-only'}>
            {profileName ?? headerTexts.label}
          </h2>
          <div className="address-line">
            {/* Shown shortened; the full address is in the title, data-address and for screen readers. */}
            <p className="address" title={address}>
              <span data-testid="account-address" data-address={address} aria-hidden="true">
                {truncateAddress(address)}
              </span>
              <span className="sr-only">{address}</span>
            </p>
            <button type="button" className="icon-button" aria-label={texts.account.copy} onClick={onCopy}>
              <CopyIcon />
            </button>
            {explorerUrl && (
              <a
                className="icon-button"
                href={explorerUrl}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`${headerTexts.explorer} ${texts.account.newTab}`}
              >
                <ExternalIcon />
              </a>
            )}
          </div>
          {'showNetworks' in ui ? (
            <button type="button" className="network-badge" onClick={ui.showNetworks}>
              <NetworkBadge account={account} />
            </button>
          ) : (
            <p className="network-badge">
              <NetworkBadge account={account} />
            </p>
          )}
        </div>
      </div>
      <div className="account-holdings" aria-busy={account.holdingsLoading ?? false}>
        {account.holdingsLoading ? (
          // The total's and the balance's lines, held for them while the API answers.
          <div aria-hidden="true" className="account-holdings">
            <p className="account-total">
              <SkeletonText width="5em" />
            </p>
            <p className="balance">
              <SkeletonText width="8em" />
            </p>
          </div>
        ) : null}
        {account.total && (
          <p className="account-total">
            <span className="sr-only">{headerTexts.total}: </span>
            <span data-testid="account-total">{account.total}</span>
          </p>
        )}
        {account.balance && !account.holdingsLoading && (
          <p className="balance" data-testid="account-balance">
            {account.balance}
          </p>
        )}
      </div>
      {children}
    </div>
  )
}

/** The profile's avatar, else the address's identicon; the wallet's logo as a badge on it. */
function Avatar({ account }: { account: HeaderProps['account'] }) {
  // The URL that failed to load, so a new avatar gets its own chance.
  const [failed, setFailed] = useState<string>()
  const image = account.profileImage !== failed ? account.profileImage : undefined
  return (
    <div className="account-avatar">
      {image ? (
        <img
          className="account-avatar-image"
          src={image}
          alt=""
          width={avatarSize}
          height={avatarSize}
          referrerPolicy="no-referrer"
          onError={() => setFailed(image)}
        />
      ) : (
        <Identicon className="account-avatar-image" address={account.address} size={avatarSize} />
      )}
      <img
        className="account-wallet-badge"
        src={account.wallet.icon}
        alt={headerTexts.wallet(account.wallet.name)}
        title={account.wallet.name}
        width={20}
        height={20}
      />
    </div>
  )
}

function NetworkBadge({ account }: { account: AccountInfo }) {
  return (
    <>
      {account.network && <NetworkIcon network={account.network} />}
      <span className="sr-only">{texts.account.network}: </span>
      <span className="network-badge-name">{account.network?.name ?? account.chainId}</span>
    </>
  )
}
