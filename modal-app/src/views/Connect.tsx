import { useId } from 'react'
import type { Snapshot, Ui, WalletEntry } from '../Modal.ts'
import { texts } from '../texts.ts'
import { onListKeyDown } from '../ui/keys.ts'

/** The page's wallets, recent first, each tagged with its chain family; the host's origin above them. */
export function Connect({ snapshot, ui }: { snapshot: Snapshot; ui: Ui }) {
  return (
    <div className="view">
      {snapshot.origin && (
        <p className="origin">
          <strong data-testid="host-origin">{snapshot.origin}</strong> {texts.connect.wantsToConnect}
        </p>
      )}
      {snapshot.wallets.length > 0 ? (
        <ul
          className="list"
          data-testid="wallet-list"
          aria-label={texts.connect.walletList}
          onKeyDown={onListKeyDown}
        >
          {snapshot.wallets.map((entry) => (
            <WalletButton key={entry.wallet.id} entry={entry} ui={ui} />
          ))}
        </ul>
      ) : (
        <p className="muted">{texts.connect.noWallets}</p>
      )}
    </div>
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
