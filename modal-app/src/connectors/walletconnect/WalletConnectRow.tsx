import type { CoreUi } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import type { PairingUi } from './types.ts'
import * as WcWallet from './wallet.ts'

/** Connect's WalletConnect row: the plain QR code, for any wallet that scans one. */
export function WalletConnectRow({ ui }: { ui: CoreUi & PairingUi }) {
  return (
    <li>
      <button type="button" className="row" onClick={() => ui.connectWalletConnect()}>
        <img className="wallet-icon" src={WcWallet.icon} alt="" width={32} height={32} />
        <span className="row-label">{texts.walletConnect.name}</span>
        <span className="tags" aria-hidden="true">
          <span className="tag">{texts.walletConnect.tag}</span>
        </span>
      </button>
    </li>
  )
}
