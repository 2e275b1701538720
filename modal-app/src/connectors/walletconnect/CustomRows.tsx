/**
 * Connect's `custom` group: the wallets the host lists itself (`customWallets`), each paired over
 * WalletConnect through its own links, as a registry wallet is. Their names and icons are the host's claims;
 * the wallet that answers the pairing names itself in the session.
 */
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import type { PairingSlice, PairingUi } from './types.ts'

/**
 * The host's wallets, less those it excluded (the slice is there once WalletConnect's logic loaded); one
 * whose browser extension is on the page (same rdns) is left out, so the wallet is listed once, by the
 * extension that connects in one click.
 */
export function CustomRows({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<PairingSlice>
  ui: PairingUi
}) {
  const onPage = new Set(snapshot.wallets.map((entry) => entry.wallet.rdns?.toLowerCase()))
  return (snapshot.customWallets ?? [])
    .filter((wallet) => !wallet.rdns || !onPage.has(wallet.rdns.toLowerCase()))
    .map((wallet) => (
      <li key={wallet.id}>
        <button
          type="button"
          className="row"
          data-testid="custom-wallet"
          onClick={() =>
            ui.connectCustom({
              id: wallet.id,
              name: wallet.name,
              mobileLink: wallet.mobileLink,
              desktopLink: wallet.desktopLink,
              webappLink: wallet.webappLink,
            })
          }
        >
          <img className="wallet-icon" src={wallet.iconUrl} alt="" width={32} height={32} />
          <span className="row-label">{wallet.name}</span>
        </button>
      </li>
    ))
}
