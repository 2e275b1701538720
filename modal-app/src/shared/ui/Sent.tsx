/**
 * A transaction the modal sent, on its way to the chain: what became of it (pending, then confirmed or
 * failed), a link to it on the network's explorer, Done, and Try again where the feature offers one after a
 * failure. Send's and Swap's result; only their lazy views import it.
 */
import type { Network } from '../Network.ts'
import { ExternalIcon } from './linkIcons.tsx'
import { sentTexts } from './sentTexts.ts'

export type Settled = 'pending' | 'confirmed' | 'failed'

/** The transaction's page on the network's explorer, when it has one. */
export function transactionUrl(explorer: Network['explorer'] | undefined, id: string): string | undefined {
  return explorer && `${explorer.url}/tx/${id}${explorer.query ?? ''}`
}

export function Sent(props: {
  id: string
  status: Settled
  /** What each status says. */
  labels: Record<Settled, string>
  /** The status line's test id (`send-status`). */
  testId: string
  url: string | undefined
  onDone(): void
  /** Offered after a failure, when given. */
  onRetry?: (() => void) | undefined
}) {
  return (
    <div className="send-result">
      <p role="status" data-testid={props.testId} data-status={props.status} data-id={props.id}>
        {props.labels[props.status]}
      </p>
      {props.url && (
        <a className="row" href={props.url} target="_blank" rel="noopener noreferrer">
          <span className="row-label">{sentTexts.explorer}</span>
          <span className="sr-only"> {sentTexts.newTab}</span>
          <ExternalIcon />
        </a>
      )}
      <div className="actions actions-row">
        {props.status === 'failed' && props.onRetry && (
          <button type="button" className="button button-secondary" onClick={props.onRetry}>
            {sentTexts.tryAgain}
          </button>
        )}
        <button type="button" className="button" onClick={props.onDone}>
          {sentTexts.done}
        </button>
      </div>
    </div>
  )
}
