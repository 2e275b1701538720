import type { ViewProps } from '../../core/Feature.ts'
import { formatUnits } from '../../shared/Amount.ts'
import { truncateAddress } from '../../shared/format.ts'
import { describe } from './Describe.ts'
import type { SessionsSlice, SessionsUi } from './runtime.ts'
import { sessionTexts } from './texts.ts'
import { sessionTitleTexts } from './titleTexts.ts'

/**
 * The account's live sessions as `sessionOf` has them on chain, each with what it allows, what it spent (gas
 * included) and Revoke.
 */
export default function Sessions({ snapshot, ui }: ViewProps) {
  const list = (snapshot as SessionsSlice).smartSessions?.list
  const actions = ui as Partial<SessionsUi>
  if (!list || list.state === 'loading')
    return (
      <div className="view" aria-busy="true">
        <p className="muted">{sessionTexts.loading}</p>
      </div>
    )
  if (list.state === 'unreachable')
    return (
      <div className="view">
        <p role="alert">{sessionTexts.unreachable}</p>
      </div>
    )
  return (
    <div className="view">
      {list.sessions.length === 0 && <p className="muted">{sessionTexts.none}</p>}
      <ul className="list" aria-label={sessionTitleTexts.listTitle}>
        {list.sessions.map((session) => {
          const words = describe(
            { ...session, limit: BigInt(session.limit), gasAllowance: BigInt(session.gasAllowance) },
            session.token,
          )
          const spent = describe(
            { ...session, limit: BigInt(session.spent), gasAllowance: 0n },
            session.token,
          ).limit
          const ether = (wei: string) => `${formatUnits(BigInt(wei), 18)} ETH`
          const revoking = list.revoking === session.pci
          return (
            <li key={session.pci} className="session" data-testid="smart-session">
              <p className="row-label">
                {words.call} · {words.contract}
              </p>
              {session.origin && <p className="muted">{sessionTexts.grantedTo(session.origin)}</p>}
              <p className="muted">{sessionTexts.spent(spent, words.limit)}</p>
              <p className="muted">
                {session.gasAllowance === '0'
                  ? words.gas
                  : sessionTexts.gasSpent(ether(session.gasSpent), ether(session.gasAllowance))}
              </p>
              <p className="muted">
                {sessionTexts.until}: {words.until} · {sessionTexts.key} {truncateAddress(session.key)}
              </p>
              <button
                type="button"
                className="button button-secondary"
                disabled={list.revoking !== undefined}
                aria-busy={revoking}
                onClick={() => void actions.revokeSession?.(session.pci)}
              >
                {revoking ? sessionTexts.revoking : sessionTexts.revoke}
              </button>
            </li>
          )
        })}
      </ul>
      <p className="error-text" role="alert">
        {list.error ?? ''}
      </p>
    </div>
  )
}
