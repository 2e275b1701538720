import { viewTexts as texts } from './viewTexts.ts'

/**
 * A login finished elsewhere (a provider's window, a Farcaster app): while it runs, what it waits for; once
 * it failed, why, and Try again alone.
 */
export function LoginProgress({
  error,
  errorTestId,
  retry,
  waiting,
}: {
  error?: string | undefined
  errorTestId: string
  /** Called in the click, as a provider's window may only open there. */
  retry(): void
  waiting: string
}) {
  if (!error)
    return (
      <p className="muted" role="status" aria-busy="true">
        <span className="spinner" aria-hidden="true" /> {waiting}
      </p>
    )
  return (
    <>
      <p className="error-text" role="alert" data-testid={errorTestId}>
        {error}
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={retry}>
          {texts.social.retry}
        </button>
      </div>
    </>
  )
}
