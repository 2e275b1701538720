import { useId } from 'react'
import type { Listing } from '../api/Api.ts'
import * as WcWallet from '../connectors/wcWallet.ts'
import type { Snapshot, Ui, WalletEntry } from '../Modal.ts'
import { texts } from '../texts.ts'
import { onListKeyDown } from '../ui/keys.ts'

/**
 * The page's wallets, recent first, each tagged with its chain family; the host's origin above them. With
 * WalletConnect: its QR code, featured and recommended wallets from the registry, and All Wallets.
 */
export function Connect({ snapshot, ui }: { snapshot: Snapshot; ui: Ui }) {
  const { wallets, walletConnect } = snapshot
  const listed = [...snapshot.featured, ...snapshot.recommended]
  return (
    <div className="view">
      {snapshot.origin && (
        <p className="origin">
          <strong data-testid="host-origin">{snapshot.origin}</strong> {texts.connect.wantsToConnect}
        </p>
      )}
      {wallets.length > 0 || walletConnect ? (
        <ul
          className="list"
          data-testid="wallet-list"
          aria-label={texts.connect.walletList}
          onKeyDown={onListKeyDown}
        >
          {wallets.map((entry) => (
            <WalletButton key={entry.wallet.id} entry={entry} ui={ui} />
          ))}
          {walletConnect && (
            <>
              <li>
                <button type="button" className="row" onClick={() => ui.connectWalletConnect()}>
                  <img className="wallet-icon" src={WcWallet.icon} alt="" width={32} height={32} />
                  <span className="row-label">{texts.walletConnect.name}</span>
                  <span className="tags" aria-hidden="true">
                    <span className="tag">{texts.walletConnect.tag}</span>
                  </span>
                </button>
              </li>
              {listed.map((listing) => (
                <ListingButton key={listing.id} listing={listing} ui={ui} />
              ))}
              <li>
                <button type="button" className="row" onClick={() => ui.showAllWallets()}>
                  <span className="wallet-icon wallet-icon-grid" aria-hidden="true" />
                  <span className="row-label">{texts.walletConnect.allWallets}</span>
                </button>
              </li>
            </>
          )}
        </ul>
      ) : (
        <p className="muted">{texts.connect.noWallets}</p>
      )}
    </div>
  )
}

function ListingButton({ listing, ui }: { listing: Listing; ui: Ui }) {
  return (
    <li>
      <button type="button" className="row" onClick={() => ui.connectWalletConnect(listing)}>
        <img className="wallet-icon" src={ui.imageUrl(listing)} alt="" width={32} height={32} />
        <span className="row-label">{listing.name}</span>
      </button>
    </li>
  )
}

function WalletButton({ entry, ui }: { entry: WalletEntry; ui: Ui }) {
  const tagsId = useId()
  const { wallet, recent } = entry
  return (
    <li>
      {/* Named by the wallet alone; the tags describe it, so they stay out of the name. */}
      <button type="button" className="row" aria-describedby={tagsId} onClick={() => ui.selectWallet(wallet)}>
        <img className="wallet-icon" src={wallet.icon} alt="" width={32} height={32} />
        <span className="row-label">{wallet.name}</span>
        <span className="tags" id={tagsId} aria-hidden="true">
          {recent && <span className="tag">{texts.connect.recent}</span>}
          <span className="tag">{texts.namespaces[wallet.namespace]}</span>
        </span>
      </button>
    </li>
  )
}
