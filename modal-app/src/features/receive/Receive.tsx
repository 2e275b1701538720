import { encode } from 'uqr'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import { CopyIcon } from '../../shared/ui/icons.tsx'
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
        <QrCode text={account.address} />
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

/** The address as one SVG path, drawn here: no QR service learns the address. */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 2 })
  let path = ''
  for (const [y, row] of data.entries())
    for (const [x, dark] of row.entries()) if (dark) path += `M${x} ${y}h1v1h-1z`
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={receiveTexts.qrLabel}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}

/** The network's icon, else its initial; decorative, the name is beside it. */
function NetworkIcon({ network }: { network: Network }) {
  if (network.iconUrl)
    return (
      <img
        className="network-icon"
        src={network.iconUrl}
        alt=""
        width={24}
        height={24}
        referrerPolicy="no-referrer"
      />
    )
  return (
    <span className="network-icon network-monogram" aria-hidden="true">
      {network.name.slice(0, 1)}
    </span>
  )
}
