import { useId, useState } from 'react'
import type { ViewProps } from '../../core/Feature.ts'
import { viewTexts as texts } from './viewTexts.ts'

type RecoverySlice = {
  mode: 'create' | 'recover' | 'keep'
  busy: boolean
  error?: string | undefined
  min: number
  /** A passkey is offered: to create the wallet, or one that seals a copy of its recovery share. */
  passkey: boolean
  /** The password form shows. */
  password: boolean
}

/**
 * What protects the wallet: a passkey, asked for when the wallet is created and when this browser does not
 * hold a share of it yet; or the recovery password, where the visitor has no passkey that can (chosen twice,
 * and refused when too easy to guess: the runtime says why). Checked here for length and match; the wallet
 * itself says whether it opens.
 */
export default function Recovery({ snapshot, ui }: ViewProps) {
  const state = snapshot.embeddedWallet?.recovery as RecoverySlice | undefined
  if (!state) return null
  if (state.mode === 'keep') return <Keep busy={state.busy} ui={ui} />
  if (!state.passkey) return <Password state={state} ui={ui} />
  const creating = state.mode === 'create'
  return (
    <div className="view">
      <p>{creating ? texts.wallet.passkeyIntro : texts.wallet.passkeyRecoverIntro}</p>
      <p className="error-text" role="alert">
        {state.error ?? ''}
      </p>
      <div className="actions">
        {/* In the click: the passkey's prompt, or the window it runs in, needs it. */}
        <button
          type="button"
          className="button"
          data-testid="passkey-submit"
          disabled={state.busy}
          aria-busy={state.busy || undefined}
          onClick={() => (creating ? ui.protectWithPasskey() : ui.unlockWithPasskey())}
        >
          {state.busy
            ? texts.wallet.working
            : creating
              ? texts.wallet.passkeyCreate
              : texts.wallet.passkeyUnlock}
        </button>
        {creating && (
          <button
            type="button"
            className="button button-secondary"
            data-testid="use-password"
            disabled={state.busy}
            onClick={() => ui.choosePassword()}
          >
            {texts.wallet.usePassword}
          </button>
        )}
      </div>
      {!creating && state.password && (
        <>
          <h2 className="label">{texts.wallet.orPassword}</h2>
          <Password state={{ ...state, error: undefined }} ui={ui} />
        </>
      )}
    </div>
  )
}

/** The recovery password's form: chosen twice when creating, once to unlock. */
function Password({ state, ui }: { state: RecoverySlice; ui: ViewProps['ui'] }) {
  const id = useId()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const creating = state.mode === 'create'
  const error = problem ?? state.error
  return (
    <form
      className={state.passkey ? undefined : 'view'}
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
      {!state.passkey && <p>{creating ? texts.wallet.createIntro : texts.wallet.recoverIntro}</p>}
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
