import { type ReactNode, useState } from 'react'
import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import * as Locale from '../../shared/i18n/Locale.ts'
import { texts } from '../../shared/texts.ts'
import { QrCode } from '../../shared/ui/QrCode.tsx'
import type { PairingInfo } from './Flow.ts'
import { pairingTexts } from './texts.ts'
import type { PairingSlice, PairingUi } from './types.ts'
import * as WcWallet from './wallet.ts'

/**
 * ConnectingWalletConnectBasic: the pairing URI as a QR code and a link to copy, and for a wallet picked
 * from the registry, buttons that open its app with the URI. One state shows at a time, from the pairing
 * machine: preparing, waiting (with the time the code expires), expired (Retry makes a new pairing) or
 * failed (the error and Try again, no QR code and no progress). On a phone the wallet's app comes first
 * and the QR code, useless on the phone itself, waits behind a button.
 */
export default function ConnectingWalletConnect({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<PairingSlice>
  ui: CoreUi & PairingUi
}) {
  // WalletConnect's logic loads a moment after the first render; until then the QR code is being prepared.
  const pairing: PairingInfo = snapshot.pairing ?? { status: 'idle', links: [] }
  const { status, target } = pairing
  const appFirst = Boolean(snapshot.deepLinksFirst && pairing.links.includes('mobile'))
  const [qrShown, setQrShown] = useState(false)
  if (status === 'failed' || status === 'expired')
    return (
      <div className="view view-center">
        <p className={status === 'failed' ? 'error-text' : 'muted'} role="alert" data-testid="wc-state">
          {status === 'failed'
            ? (pairing.failure?.message ?? texts.walletConnect.failed)
            : pairingTexts.expired}
        </p>
        <div className="actions">
          {/* biome-ignore lint/a11y/noAutofocus: the only way on after a failure; focus must not stay on a removed button. */}
          <button type="button" className="button" autoFocus onClick={() => ui.retry()}>
            {status === 'failed' ? texts.walletConnect.tryAgain : pairingTexts.retry}
          </button>
        </div>
      </div>
    )
  const qr = !appFirst || qrShown
  return (
    <div className="view view-center">
      {qr && (
        <>
          <p className="lead">
            {target ? texts.walletConnect.scanWith(target.name) : texts.walletConnect.scan}
          </p>
          <Qr uri={pairing.uri} />
        </>
      )}
      <p className="muted" aria-live="polite" data-testid="wc-state">
        {pairing.uri ? texts.walletConnect.waiting : texts.walletConnect.preparing}
      </p>
      {pairing.uri && pairing.expiresAt !== undefined && (
        <p className="muted" data-testid="wc-expiry">
          {pairingTexts.expiresAt(timeOfDay(pairing.expiresAt))}
        </p>
      )}
      <Actions pairing={pairing} ui={ui}>
        {appFirst && (
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={qrShown}
            onClick={() => setQrShown(!qrShown)}
          >
            {qrShown ? pairingTexts.hideQr : pairingTexts.showQr}
          </button>
        )}
      </Actions>
    </div>
  )
}

function Qr({ uri }: { uri: string | undefined }) {
  return (
    <div className="qr" data-testid="wc-qr" aria-busy={!uri}>
      {uri && (
        <QrCode
          text={uri}
          label={texts.walletConnect.qrLabel}
          ecc="Q"
          centre={(size) => (
            <image href={WcWallet.icon} x={size / 2 - 4} y={size / 2 - 4} width={8} height={8} />
          )}
        />
      )}
    </div>
  )
}

/** The picked wallet's apps (its mobile app first on a phone), then Copy link and what the view adds. */
function Actions({ pairing, ui, children }: { pairing: PairingInfo; ui: PairingUi; children?: ReactNode }) {
  const { uri, target, links } = pairing
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
      {children}
      <button type="button" className="button button-secondary" disabled={!uri} onClick={copy}>
        {texts.walletConnect.copyLink}
      </button>
    </div>
  )
}

/** A time of day in the modal's language (`Intl`), e.g. 14:07 or 2:07 PM. */
const timeOfDay = (at: number) =>
  new Intl.DateTimeFormat(Locale.current().tag, { timeStyle: 'short' }).format(at)

const linkLabels = {
  mobile: texts.walletConnect.openApp,
  desktop: texts.walletConnect.openDesktop,
  webapp: texts.walletConnect.openWeb,
}
