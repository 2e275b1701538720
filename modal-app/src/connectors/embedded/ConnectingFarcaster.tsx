import type { ViewProps } from '../../core/Feature.ts'
import { QrCode } from '../../shared/ui/QrCode.tsx'
import { LoginProgress } from './LoginProgress.tsx'
import { viewTexts as texts } from './viewTexts.ts'

/**
 * docs/behaviour.md §2's ConnectingFarcaster: the sign-in link as a QR code for a phone and as a link for a Farcaster app on
 * this device, while the modal waits for the approval; when it failed or expired, why, and Try again.
 */
export default function ConnectingFarcaster({ snapshot, ui }: ViewProps) {
  const state = snapshot.embeddedWallet?.farcaster as { url?: string; error?: string } | undefined
  if (!state) return null
  const { url, error } = state
  return (
    <div className="view view-center">
      {/* One state at a time: after a failure its link is spent, so the QR code goes with the progress. */}
      {url && !error && (
        <>
          <div className="qr" data-testid="farcaster-qr">
            <QrCode text={url} label={texts.farcaster.qr} />
          </div>
          <p className="muted">{texts.farcaster.scan}</p>
          <a
            className="button button-secondary"
            href={url}
            data-testid="farcaster-link"
            rel="noopener noreferrer"
          >
            {texts.farcaster.open}
          </a>
        </>
      )}
      <LoginProgress
        error={error}
        errorTestId="farcaster-error"
        retry={() => ui.socialLogin('farcaster')}
        waiting={url ? texts.farcaster.waiting : texts.wallet.opening}
      />
    </div>
  )
}
