import { useId, useState } from 'react'
import type { ViewProps } from '../../core/Feature.ts'
import { viewTexts as texts } from './viewTexts.ts'

type RecoverySlice = {
  mode: 'create' | 'recover' | 'keep'
  busy: boolean
  error?: string | undefined
  min: number
}

/**
 * The recovery password: chosen (twice) when the wallet is created, asked for when this browser does not
 * hold a share of it yet. Checked here for length and match; the wallet itself says whether it opens.
 */
export default function Recovery({ snapshot, ui }: ViewProps) {
  const state = snapshot.embeddedWallet?.recovery as RecoverySlice | undefined
  const id = useId()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  if (!state) return null
  if (state.mode === 'keep') return <Keep busy={state.busy} ui={ui} />
  const creating = state.mode === 'create'
  const error = problem ?? state.error
  return (
    <form
      className="view"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        const local =
          password.length < state.min
            ? texts.wallet.tooShort(state.min)
            : creating && password !== confirm
              ? texts.wallet.mismatch
              : undefined
        setProblem(local)
        if (!local) void ui.submitRecovery(password)
      }}
    >
      <p>{creating ? texts.wallet.createIntro : texts.wallet.recoverIntro}</p>
      <label className="label" htmlFor={`${id}-password`}>
        {texts.wallet.password}
      </label>
      <input
        id={`${id}-password`}
        className="search"
        data-testid="recovery-password"
        type="password"
        autoComplete={creating ? 'new-password' : 'current-password'}
        minLength={state.min}
        disabled={state.busy}
        value={password}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        onChange={(event) => setPassword(event.target.value)}
      />
      {creating && (
        <>
          <label className="label" htmlFor={`${id}-confirm`}>
            {texts.wallet.confirm}
          </label>
          <input
            id={`${id}-confirm`}
            className="search"
            data-testid="recovery-confirm"
            type="password"
            autoComplete="new-password"
            disabled={state.busy}
            value={confirm}
            aria-describedby={`${id}-error`}
            onChange={(event) => setConfirm(event.target.value)}
          />
        </>
      )}
      <p className="error-text" role="alert" id={`${id}-error`}>
        {error ?? ''}
      </p>
      <div className="actions">
        <button
          type="submit"
          className="button"
          data-testid="recovery-submit"
          disabled={state.busy}
          aria-busy={state.busy || undefined}
        >
          {state.busy ? texts.wallet.working : creating ? texts.wallet.create : texts.wallet.recover}
        </button>
      </div>
    </form>
  )
}

/** Where the frame may keep nothing: a window of the modal origin may keep the login, if the visitor wants. */
function Keep({ busy, ui }: { busy: boolean; ui: ViewProps['ui'] }) {
  return (
    <div className="view">
      <p>{texts.wallet.keepIntro}</p>
      <div className="actions actions-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => ui.keepLogin(false)}
        >
          {texts.wallet.notNow}
        </button>
        {/* In the click: the window may only open there. */}
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => ui.keepLogin(true)}
        >
          {texts.wallet.keep}
        </button>
      </div>
    </div>
  )
}
