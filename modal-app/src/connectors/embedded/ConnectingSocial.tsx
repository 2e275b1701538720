import type { ViewProps } from '../../core/Feature.ts'
import { embeddedTexts } from './texts.ts'
import { viewTexts as texts } from './viewTexts.ts'

/** While the provider's window is open: what to do there, and, when it failed, why and a way to try again. */
export default function ConnectingSocial({ snapshot, ui }: ViewProps) {
  const social = snapshot.embeddedWallet?.social as
    | { provider: string; error?: string; opening: boolean }
    | undefined
  if (!social) return null
  const name = embeddedTexts.providers[social.provider] ?? social.provider
  return (
    <div className="view">
      {social.error ? (
        <>
          <p className="error-text" role="alert" data-testid="social-error">
            {social.error}
          </p>
          <div className="actions">
            {/* In the click, as the window may only open there. */}
            <button type="button" className="button" onClick={() => ui.socialLogin(social.provider)}>
              {texts.social.retry}
            </button>
          </div>
        </>
      ) : (
        <p className="muted" role="status" aria-busy="true">
          <span className="spinner" aria-hidden="true" />{' '}
          {social.opening ? texts.wallet.opening : texts.social.waiting(name)}
        </p>
      )}
    </div>
  )
}
