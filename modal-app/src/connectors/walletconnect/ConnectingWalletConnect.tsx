import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import { QrCode } from '../../shared/ui/QrCode.tsx'
import type { PairingSlice, PairingUi } from './types.ts'
import * as WcWallet from './wallet.ts'

/**
 * ConnectingWalletConnectBasic: the pairing URI as a QR code and a link to copy, and for a wallet
 * picked from the registry, buttons that open its app with the URI. A new QR code replaces one about to
 * expire on its own; after a failure, Try again.
 */
export default function ConnectingWalletConnect({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<PairingSlice>
  ui: CoreUi & PairingUi
}) {
  // WalletConnect's logic loads a moment after the first render; until then the QR code is being prepared.
  const { status, uri, target, failure, links } = snapshot.pairing ?? { status: 'idle', links: [] }
  const copy = async () => {
    if (!uri) return
    try {
      await navigator.clipboard.writeText(uri)
      ui.copiedLink(true)
    } catch {
      ui.copiedLink(false)
    }
  }
  return (
    <div className="view view-center">
      <p className="lead">{target ? texts.walletConnect.scanWith(target.name) : texts.walletConnect.scan}</p>
      <div className="qr" data-testid="wc-qr" aria-busy={!uri}>
        {uri ? (
          <QrCode
            text={uri}
            label={texts.walletConnect.qrLabel}
            ecc="Q"
            centre={(size) => (
              <image href={WcWallet.icon} x={size / 2 - 4} y={size / 2 - 4} width={8} height={8} />
            )}
          />
        ) : (
          <span className="muted">{texts.walletConnect.preparing}</span>
        )}
      </div>
      {status === 'failed' ? (
        <>
          <p className="muted" role="alert">
            {failure?.message ?? texts.walletConnect.failed}
          </p>
          <button type="button" className="button" onClick={() => ui.retry()}>
            {texts.walletConnect.tryAgain}
          </button>
        </>
      ) : (
        <p className="muted" aria-live="polite">
          {uri ? texts.walletConnect.waiting : ''}
        </p>
      )}
      <div className="actions">
        {target &&
          links.map((kind) => (
            <button
              key={kind}
              type="button"
              className="button"
              disabled={!uri}
              onClick={() => ui.openWallet(kind)}
            >
              {linkLabels[kind](target.name)}
            </button>
          ))}
        <button type="button" className="button button-secondary" disabled={!uri} onClick={copy}>
          {texts.walletConnect.copyLink}
        </button>
      </div>
    </div>
  )
}

const linkLabels = {
  mobile: texts.walletConnect.openApp,
  desktop: texts.walletConnect.openDesktop,
  webapp: texts.walletConnect.openWeb,
}
