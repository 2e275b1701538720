import type { CoreUi } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import type { PairingSlice, PairingUi } from './types.ts'
import * as WcWallet from './wallet.ts'

/**
 * Connect's WalletConnect row: the plain QR code, for any wallet that scans one; first, where a window of
 * the modal origin keeps a session from an earlier page load, the way to bring it back. On a phone a QR
 * code cannot be scanned by the phone itself: the row leads to AllWallets (where the registry is on), whose
 * wallets open their apps with the pairing (docs/behaviour.md §2).
 */
export function WalletConnectRow({
  snapshot,
  ui,
}: {
  snapshot: Partial<PairingSlice>
  ui: CoreUi & PairingUi & { showAllWallets?: (() => void) | undefined }
}) {
  const connect = () =>
    snapshot.deepLinksFirst && ui.showAllWallets ? ui.showAllWallets() : ui.connectWalletConnect()
  const icon = <img className="wallet-icon" src={WcWallet.icon} alt="" width={32} height={32} />
  return (
    <>
      {snapshot.sessionKeeping === 'restore' && (
        <li>
          <button type="button" className="row" onClick={() => ui.restoreSession()}>
            {icon}
            <span className="row-label">{texts.walletConnect.restore}</span>
          </button>
        </li>
      )}
      <li>
        <button type="button" className="row" onClick={connect}>
          {icon}
          <span className="row-label">{texts.walletConnect.name}</span>
          <span className="tags" aria-hidden="true">
            <span className="tag">{texts.walletConnect.tag}</span>
          </span>
        </button>
      </li>
    </>
  )
}
