import { lazy, Suspense, useId, useState } from 'react'
import type { CoreUi } from '../../core/Snapshot.ts'
import { embeddedTexts as texts } from './texts.ts'

/** What Connect's rows read of the embedded wallet's slice; absent until its logic has loaded. */
type RowsSlice = {
  embeddedWallet?: {
    socials: readonly string[]
    email: { sending: boolean; error?: string | undefined; restorable: boolean }
    /** Whether a passkey may sign in here (WebAuthn, and a modal origin that is a name). */
    passkey?: boolean
  }
}

/** The actions the rows call (see `runtime.ts`); absent until the logic has loaded. */
type RowsUi = CoreUi & {
  sendEmailCode?(email: string): void
  restoreLogin?(): void
  socialLogin?(provider: string): void
  passkeyLogin?(): void
}

/**
 * Connect's email login: one field and a button. The address is checked by the API's own rule when sent,
 * so the row says exactly what the API would. Beside it, signing in with a passkey, which needs no email.
 */
export function EmailRow({ snapshot, ui }: { snapshot: RowsSlice; ui: RowsUi }) {
  const id = useId()
  const [email, setEmail] = useState('')
  const state = snapshot.embeddedWallet?.email
  const busy = !ui.sendEmailCode || state?.sending === true
  return (
    <>
      {state?.restorable && (
        <button type="button" className="button email-login" onClick={() => ui.restoreLogin?.()}>
          {texts.restore}
        </button>
      )}
      <form
        className="email-login"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          ui.sendEmailCode?.(email)
        }}
      >
        <label className="label" htmlFor={`${id}-email`}>
          {texts.email}
        </label>
        <div className="email-field">
          <input
            id={`${id}-email`}
            className="search"
            data-testid="email-input"
            type="email"
            autoComplete="email"
            inputMode="email"
            spellCheck={false}
            placeholder={texts.emailPlaceholder}
            value={email}
            aria-invalid={state?.error ? true : undefined}
            aria-describedby={`${id}-error`}
            onChange={(event) => setEmail(event.target.value)}
          />
          <button
            type="submit"
            className="button"
            aria-label={texts.continueWithEmail}
            disabled={busy}
            aria-busy={state?.sending || undefined}
          >
            {state?.sending ? texts.sending : texts.continue}
          </button>
        </div>
        <p className="error-text" role="alert" id={`${id}-error`}>
          {state?.error ?? ''}
        </p>
      </form>
      {snapshot.embeddedWallet?.passkey && (
        // In the click: the passkey's prompt (or the window it runs in) needs it.
        <button
          type="button"
          className="button button-secondary email-login"
          data-testid="passkey-login"
          onClick={() => ui.passkeyLogin?.()}
        >
          {texts.passkeyLogin}
        </button>
      )}
    </>
  )
}

/** The providers' marks load after Connect draws: none of them is in the first chunk. */
const SocialMark = lazy(() => import('./SocialMarks.tsx'))

/** Connect's social logins: one button a provider, in the host's order, its mark above its name. */
export function SocialRow({ snapshot, ui }: { snapshot: RowsSlice; ui: RowsUi }) {
  const socials = snapshot.embeddedWallet?.socials ?? []
  if (socials.length === 0) return null
  return (
    <ul className="socials" aria-label={texts.socialList}>
      {socials.map((provider) => (
        <li key={provider}>
          <button
            type="button"
            className="button button-secondary"
            data-testid={`social-${provider}`}
            aria-label={texts.continueWith(texts.providers[provider] ?? provider)}
            disabled={!ui.socialLogin}
            onClick={() => ui.socialLogin?.(provider)}
          >
            <Suspense fallback={<span className="social-mark" />}>
              <SocialMark provider={provider} />
            </Suspense>
            {texts.providers[provider] ?? provider}
          </button>
        </li>
      ))}
    </ul>
  )
}
