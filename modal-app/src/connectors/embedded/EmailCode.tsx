import { useEffect, useId, useRef, useState } from 'react'
import type { ViewProps } from '../../core/Feature.ts'
import { viewTexts as texts } from './viewTexts.ts'

type CodeSlice = {
  email: string
  retryAt: number
  verifying: boolean
  opening: boolean
  error?: string | undefined
  notice?: string | undefined
}

/** Seconds until `at`, rounded up, ticking once a second while there are any. */
function useSecondsUntil(at: number): number {
  const left = () => Math.max(0, Math.ceil((at - Date.now()) / 1000))
  const [seconds, setSeconds] = useState(left)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `left` reads `at`, the one input.
  useEffect(() => {
    setSeconds(left())
    const timer = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(timer)
  }, [at])
  return seconds
}

/**
 * The one-time code: one field that takes typing, a paste, or the browser's autofill of the code from the
 * mail (`autocomplete="one-time-code"`), and sends it as soon as it has six digits.
 */
export default function EmailCode({ snapshot, ui }: ViewProps) {
  const state = snapshot.embeddedWallet?.code as CodeSlice | undefined
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [value, setValue] = useState('')
  const wait = useSecondsUntil(state?.retryAt ?? 0)
  const busy = state?.verifying === true || state?.opening === true
  useEffect(() => input.current?.focus(), [])
  // A refused code is cleared, so the next one is typed fresh.
  useEffect(() => {
    if (state?.error) setValue('')
  }, [state?.error])
  if (!state) return null
  const enter = (text: string) => {
    // A pasted code may come with spaces or a dash ("123 456"): only its digits count.
    const digits = text.replace(/\D/g, '').slice(0, 6)
    setValue(digits)
    if (digits.length === 6) void ui.verifyEmailCode(digits)
  }
  return (
    <form
      className="view"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void ui.verifyEmailCode(value)
      }}
    >
      <p>{texts.code.sent(state.email)}</p>
      <label className="label" htmlFor={`${id}-code`}>
        {texts.code.label}
      </label>
      <input
        ref={input}
        id={`${id}-code`}
        className="search code-input"
        data-testid="email-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={12}
        disabled={busy}
        value={value}
        aria-invalid={state.error ? true : undefined}
        aria-describedby={`${id}-error ${id}-hint`}
        onChange={(event) => enter(event.target.value)}
      />
      <p className="error-text" role="alert" id={`${id}-error`}>
        {state.error ?? ''}
      </p>
      <p className="muted" role="status">
        {busy ? texts.code.verifying : (state.notice ?? '')}
      </p>
      <p className="muted" id={`${id}-hint`}>
        {texts.code.mailHint}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          data-testid="email-resend"
          disabled={wait > 0 || busy}
          onClick={() => ui.resendEmailCode()}
        >
          {wait > 0 ? texts.code.resendIn(wait) : texts.code.resend}
        </button>
      </div>
    </form>
  )
}
