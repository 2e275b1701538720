import type { ViewProps } from '../../core/Feature.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import { describe } from './Describe.ts'
import type { SessionsSlice, SessionsUi } from './runtime.ts'
import { sessionTexts } from './texts.ts'
import { sessionTitleTexts } from './titleTexts.ts'

/**
 * What a dApp's session key may do, in words, before it is granted: the page that asks, the function and
 * contract, the spend limit in the token's units, what the account may pay for its network fees, the end. Grant waits for the clickjacking guard (where it
 * cannot see the card, the approval window of the modal's own origin asks instead); focus lands on Reject,
 * never on Grant.
 */
export default function GrantPermissions({ snapshot, ui }: ViewProps) {
  const grant = (snapshot as SessionsSlice).smartSessions?.grant
  const actions = ui as Partial<SessionsUi>
  if (!grant) return <div className="view" />
  const { session, origin, token, busy, error } = grant
  const words = describe(session, token)
  return (
    <div className="view" aria-busy={busy}>
      <p className="origin">{sessionTexts.asks(origin)}</p>
      <p>{sessionTexts.explain}</p>
      <dl className="summary" aria-label={sessionTitleTexts.grantTitle}>
        <div className="summary-row">
          <dt>{sessionTexts.call}</dt>
          <dd>{words.call}</dd>
        </div>
        <div className="summary-row">
          <dt>{sessionTexts.contract}</dt>
          <dd title={session.target}>{words.contract}</dd>
        </div>
        <div className="summary-row">
          <dt>{sessionTexts.limit}</dt>
          <dd data-testid="session-limit">{words.limit}</dd>
        </div>
        <div className="summary-row">
          <dt>{sessionTexts.gas}</dt>
          <dd data-testid="session-gas">{words.gas}</dd>
        </div>
        <div className="summary-row">
          <dt>{sessionTexts.until}</dt>
          <dd>{words.until}</dd>
        </div>
        <div className="summary-row">
          <dt>{sessionTexts.key}</dt>
          <dd title={session.key}>{truncateAddress(session.key)}</dd>
        </div>
      </dl>
      <p className="muted">{sessionTexts.onChain}</p>
      <p className="error-text" role="alert">
        {error ?? ''}
      </p>
      <p className="muted" aria-live="polite">
        {busy ? sessionTexts.granting : ''}
      </p>
      {!busy && (
        <Unverified
          question={() => ({
            title: sessionTitleTexts.grantTitle,
            origin,
            // The approval window's question holds at most 300 characters.
            question:
              `${words.call} · ${words.contract} · ${sessionTexts.limit}: ${words.limit} · ${sessionTexts.gas}: ${words.gas} · ${sessionTexts.until}: ${words.until}`.slice(
                0,
                300,
              ),
            choices: [{ id: 'grant', label: sessionTexts.grant }],
            cancel: texts.guard.cancel,
          })}
          onChoice={() => void actions.grantSession?.()}
        />
      )}
      <div className="actions actions-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          // biome-ignore lint/a11y/noAutofocus: Reject, never Grant, has the focus when the view opens.
          autoFocus
          onClick={() => actions.rejectGrant?.()}
        >
          {sessionTexts.reject}
        </button>
        <ApproveButton
          className="button"
          approval={session}
          disabled={busy}
          aria-busy={busy}
          onClick={() => void actions.grantSession?.()}
        >
          {sessionTexts.grant}
        </ApproveButton>
      </div>
    </div>
  )
}
