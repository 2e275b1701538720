import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import { CopyIcon } from '../../shared/ui/linkIcons.tsx'
import { NetworkIcon } from '../../shared/ui/NetworkIcon.tsx'
import { QrCode } from '../../shared/ui/QrCode.tsx'
import type { ReceiveUi } from './runtime.ts'
import { receiveTexts } from './texts.ts'

/** The account's address as a QR code and in full, Copy, the namespace's networks, and the family warning. */
export default function Receive({ snapshot, ui }: { snapshot: CoreSnapshot; ui: Partial<ReceiveUi> }) {
  const { account } = snapshot
  if (!account) return <div className="view" />
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(account.address)
      ui.receiveCopied?.(true)
    } catch {
      ui.receiveCopied?.(false)
    }
  }
  const networks = snapshot.networks.filter((network) => network.namespace === account.namespace)
  return (
    <div className="view view-center receive">
      <div className="qr" data-testid="receive-qr">
        <QrCode text={account.address} label={receiveTexts.qrLabel} />
      </div>
      <p className="label">{receiveTexts.address}</p>
      <p className="receive-address" data-testid="receive-address">
        {account.address}
      </p>
      <button type="button" className="button button-secondary" onClick={copy}>
        <CopyIcon /> {texts.account.copy}
      </button>
      <p className="notice" role="note">
        {receiveTexts.onlySend(receiveTexts.families[account.namespace])}
      </p>
      <section className="receive-networks" aria-labelledby="receive-networks">
        <h2 className="label" id="receive-networks">
          {receiveTexts.networks}
        </h2>
        <ul className="plain-list">
          {networks.map((network) => (
            <li key={network.id} className="receive-network">
              <NetworkIcon network={network} />
              <span>{network.name}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
