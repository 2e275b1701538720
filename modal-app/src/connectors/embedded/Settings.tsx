import { useId, useState } from 'react'
import type { ViewProps } from '../../core/Feature.ts'
import type { AccountType } from './AccountType.ts'
import { AccountTypes } from './AccountTypes.tsx'
import type { ProtectionPage } from './ManageRecovery.ts'
import { nameOf } from './naming.ts'
import { SettingsRecovery } from './SettingsRecovery.tsx'
import { embeddedTexts } from './texts.ts'
import { viewTexts as texts } from './viewTexts.ts'

type Change = { step: 'email' | 'current' | 'new' | 'done'; email: string; busy: boolean; error?: string }

type SettingsSlice = { forgetting: boolean; min: number; protection: ProtectionPage }

/**
 * The embedded wallet's own page: who is logged in, what protects the wallet and its recovery phrase
 * (`SettingsRecovery.tsx`), and a sign-out that also forgets this browser's part of the key, once confirmed.
 */
export default function Settings({ snapshot, ui }: ViewProps) {
  const slice = snapshot.embeddedWallet as
    | {
        settings: SettingsSlice
        user?: { email?: string; username?: string; fid?: number; provider?: string }
        change?: Change
        accountType?: AccountType
      }
    | undefined
  const id = useId()
  if (!slice?.user) return null
  const { settings, user } = slice
  const provider = user.provider ? embeddedTexts.providers[user.provider] : undefined
  const who = nameOf(user)
  return (
    <div className="view">
      {/* A user named by their provider alone (Facebook's) is not logged in "as Facebook with Facebook". */}
      <p data-testid="embedded-user">
        {texts.settings.loggedIn(who, who === provider ? undefined : provider)}
      </p>
      {/* A Farcaster account has no email to change. */}
      {user.email && <ChangeEmail change={slice.change} current={user.email} ui={ui} />}
      {slice.accountType && <AccountTypes current={slice.accountType} ui={ui} />}
      <SettingsRecovery page={settings.protection} min={settings.min} ui={ui} />
      <section aria-labelledby={`${id}-browser`}>
        <h2 className="label" id={`${id}-browser`}>
          {texts.settings.forgetTitle}
        </h2>
        <p className="muted">{texts.settings.forgetIntro}</p>
        {settings.forgetting ? (
          <div className="notice" role="alertdialog" aria-labelledby={`${id}-confirm`}>
            <p id={`${id}-confirm`}>{texts.settings.confirmForget}</p>
            <div className="actions actions-row">
              <button type="button" className="button button-secondary" onClick={() => ui.askForget(false)}>
                {texts.settings.cancel}
              </button>
              <button type="button" className="button" onClick={() => ui.forgetBrowser()}>
                {texts.settings.confirm}
              </button>
            </div>
          </div>
        ) : (
          <button type="button" className="row row-danger" onClick={() => ui.askForget(true)}>
            <span className="row-label">{texts.settings.forget}</span>
          </button>
        )}
      </section>
    </div>
  )
}

/** Changing the email, the product's way (docs/behaviour.md §4): the new address, the current address's code, then the new one's. */
function ChangeEmail({
  change,
  current,
  ui,
}: {
  change?: Change | undefined
  current: string
  ui: ViewProps['ui']
}) {
  const id = useId()
  const [value, setValue] = useState('')
  const asking = change && change.step !== 'done'
  const label =
    change?.step === 'current'
      ? texts.settings.currentCode(current)
      : change?.step === 'new'
        ? texts.settings.newCode(change.email)
        : texts.settings.newEmail
  return (
    <section aria-labelledby={`${id}-email`}>
      <h2 className="label" id={`${id}-email`}>
        {texts.settings.emailTitle}
      </h2>
      {change?.step === 'done' && (
        <p role="status" data-testid="email-changed">
          {texts.settings.changed(change.email)}
        </p>
      )}
      {asking ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            void ui.changeEmail(value)
            setValue('')
          }}
        >
          <label className="label" htmlFor={`${id}-value`}>
            {label}
          </label>
          <input
            // A new field for each step, so the browser offers the right autofill and starts empty.
            key={change.step}
            id={`${id}-value`}
            className="search"
            type={change.step === 'email' ? 'email' : 'text'}
            inputMode={change.step === 'email' ? 'email' : 'numeric'}
            autoComplete={change.step === 'email' ? 'email' : 'one-time-code'}
            value={value}
            disabled={change.busy}
            aria-invalid={change.error ? true : undefined}
            aria-describedby={`${id}-error`}
            onChange={(event) => setValue(event.target.value)}
          />
          <p className="error-text" role="alert" id={`${id}-error`}>
            {change.error ?? ''}
          </p>
          <div className="actions actions-row">
            <button type="button" className="button button-secondary" onClick={() => ui.changeEmail()}>
              {texts.settings.cancelChange}
            </button>
            <button
              type="submit"
              className="button"
              disabled={change.busy}
              aria-busy={change.busy || undefined}
            >
              {change.step === 'email' ? texts.settings.sendCode : texts.settings.confirmCode}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button button-secondary" onClick={() => ui.changeEmail()}>
          {texts.settings.change}
        </button>
      )}
    </section>
  )
}
