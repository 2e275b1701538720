import { useId, useState } from 'react'
import type { ViewProps } from '../../core/Feature.ts'
import type { ProtectionPage } from './ManageRecovery.ts'
import { viewTexts as texts } from './viewTexts.ts'

/**
 * The wallet's protection on its own page: whether a passkey protects it (else a way to move to one, with the
 * recovery password), dropping the password once a passkey does, and the recovery phrase behind its warnings
 * and a fresh passkey (or password) check.
 */
export function SettingsRecovery({
  page,
  min,
  ui,
}: {
  page: ProtectionPage
  min: number
  ui: ViewProps['ui']
}) {
  const id = useId()
  const methods = page.recoveries?.map((recovery) => recovery.method) ?? []
  const passkey = methods.includes('passkey')
  const password = methods.includes('password')
  return (
    <>
      <section aria-labelledby={`${id}-passkey`}>
        <h2 className="label" id={`${id}-passkey`}>
          {texts.settings.passkeyTitle}
        </h2>
        {page.recoveries && (
          <p className="muted" data-testid="protection">
            {passkey ? texts.settings.passkeyOn : texts.settings.passkeyOff}
          </p>
        )}
        <p role="status" data-testid="protection-notice">
          {page.notice ?? ''}
        </p>
        {page.recoveries && !passkey && password && (
          <PasswordForm
            label={texts.settings.addPasskeyPassword}
            action={texts.settings.addPasskey}
            testId="add-passkey"
            page={page}
            min={min}
            submit={(value) => ui.addPasskey(value)}
          />
        )}
        {passkey && password && !page.dropping && (
          <button type="button" className="button button-secondary" onClick={() => ui.askDropPassword(true)}>
            {texts.settings.dropPassword}
          </button>
        )}
        {page.dropping && (
          <div className="notice" role="alertdialog" aria-labelledby={`${id}-drop`}>
            <p id={`${id}-drop`}>{texts.settings.dropIntro}</p>
            <div className="actions actions-row">
              <button
                type="button"
                className="button button-secondary"
                onClick={() => ui.askDropPassword(false)}
              >
                {texts.settings.cancel}
              </button>
              <button
                type="button"
                className="button"
                data-testid="drop-password"
                disabled={page.busy}
                onClick={() => ui.dropPassword()}
              >
                {texts.settings.dropPassword}
              </button>
            </div>
          </div>
        )}
      </section>
      <section aria-labelledby={`${id}-phrase`}>
        <h2 className="label" id={`${id}-phrase`}>
          {texts.settings.phraseTitle}
        </h2>
        <p className="muted">{texts.settings.phraseIntro}</p>
        {page.phrase ? (
          <>
            <ol className="phrase" aria-label={texts.settings.phraseList} data-testid="recovery-phrase">
              {page.phrase.map((word, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a word may repeat; its place is what it is.
                <li key={index}>{word}</li>
              ))}
            </ol>
            <button type="button" className="button button-secondary" onClick={() => ui.hidePhrase()}>
              {texts.settings.hide}
            </button>
          </>
        ) : (
          <>
            <ul className="notice" aria-label={texts.settings.phraseTitle}>
              {Object.values(texts.settings.phraseWarnings).map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
            <label className="label">
              <input
                type="checkbox"
                data-testid="phrase-understood"
                checked={page.understood}
                onChange={(event) => ui.understandPhrase(event.target.checked)}
              />{' '}
              {texts.settings.phraseUnderstand}
            </label>
            {passkey ? (
              <>
                <button
                  type="button"
                  className="button"
                  data-testid="reveal-passkey"
                  disabled={!page.understood || page.busy}
                  aria-busy={page.busy || undefined}
                  onClick={() => ui.revealPhrase()}
                >
                  {page.busy ? texts.wallet.working : texts.settings.phraseCheck}
                </button>
                <p className="error-text" role="alert">
                  {page.error ?? ''}
                </p>
              </>
            ) : (
              page.recoveries && (
                <PasswordForm
                  label={texts.wallet.password}
                  action={texts.settings.show}
                  testId="reveal-password"
                  page={page}
                  // Until the warnings are acknowledged: disabled, not busy (nothing is under way).
                  ready={page.understood}
                  min={min}
                  submit={(value) => ui.revealPhrase(value)}
                />
              )
            )}
          </>
        )}
      </section>
    </>
  )
}

/** One password field and its button. */
function PasswordForm(props: {
  label: string
  action: string
  testId: string
  page: ProtectionPage
  min: number
  /** Whether the button may be used yet, busy or not. @default true */
  ready?: boolean
  submit(password: string): void
}) {
  const id = useId()
  const [password, setPassword] = useState('')
  const { page } = props
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (password.length >= props.min && props.ready !== false) props.submit(password)
      }}
    >
      <label className="label" htmlFor={`${id}-password`}>
        {props.label}
      </label>
      <input
        id={`${id}-password`}
        className="search"
        type="password"
        data-testid={`${props.testId}-password`}
        autoComplete="current-password"
        value={password}
        disabled={page.busy}
        aria-invalid={page.error ? true : undefined}
        aria-describedby={`${id}-error`}
        onChange={(event) => setPassword(event.target.value)}
      />
      <p className="error-text" role="alert" id={`${id}-error`}>
        {page.error ?? ''}
      </p>
      <button
        type="submit"
        className="button"
        data-testid={props.testId}
        disabled={page.busy || props.ready === false}
        aria-busy={page.busy || undefined}
      >
        {page.busy ? texts.wallet.working : props.action}
      </button>
    </form>
  )
}
