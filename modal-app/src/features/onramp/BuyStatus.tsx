import type { CoreSnapshot } from '../../core/Snapshot.ts'
import type { OnrampSlice, OnrampUi } from './runtime.ts'
import { onrampTexts } from './texts.ts'

type StepKey = keyof typeof onrampTexts.steps
const order: StepKey[] = ['payment', 'paid', 'delivering', 'arrived']

/**
 * A purchase after its checkout opened: its steps (waiting for the payment, payment received, tokens on
 * their way, arrived on chain), the checkout to resume when its window was closed mid-payment, and the
 * reason with Try again when it failed. The steps are a list; the current one is marked for screen readers.
 */
export default function BuyStatus({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<OnrampSlice>
  ui: Partial<OnrampUi>
}) {
  const purchase = snapshot.onramp?.purchase
  if (!purchase) return <div className="view view-loading" aria-busy="true" />
  const { stage } = purchase
  const current: StepKey =
    stage.stage === 'paying' ? 'payment' : stage.stage === 'delivering' ? 'delivering' : 'arrived'
  const reached = order.indexOf(current)
  const back = snapshot.onramp?.returnTo ? onrampTexts.backToPay : onrampTexts.done
  return (
    <div
      className="view"
      data-testid="onramp-status"
      data-stage={stage.stage}
      data-tx={'txHash' in stage ? stage.txHash : undefined}
    >
      {stage.stage === 'failed' ? (
        <div className="notice" role="alert" data-testid="onramp-failed">
          <p>{onrampTexts.failed}</p>
          <p>{stage.reason}</p>
        </div>
      ) : (
        <ol className="plain-list facts" aria-label={onrampTexts.stepLabel}>
          {order.map((key, index) => (
            <li
              key={key}
              className={index <= reached ? 'fact' : 'fact muted'}
              aria-current={index === reached ? 'step' : undefined}
              data-testid={`onramp-step-${key}`}
            >
              <span>{onrampTexts.steps[key]}</span>
              <span aria-hidden="true">{index < reached || stage.stage === 'arrived' ? '✓' : ''}</span>
            </li>
          ))}
        </ol>
      )}
      <p className="muted" role="status" data-testid="onramp-stage">
        {stage.stage === 'paying'
          ? stage.windowOpen
            ? onrampTexts.steps.payment
            : onrampTexts.paused
          : stage.stage === 'delivering'
            ? onrampTexts.steps.delivering
            : stage.stage === 'arrived'
              ? onrampTexts.arrivedNote(
                  stage.amount ? `${trimmed(stage.amount.amount)} ${stage.amount.currency}` : purchase.asset,
                )
              : ''}
      </p>
      <div className="actions actions-row">
        {stage.stage === 'paying' && (
          <button
            type="button"
            className="button"
            data-testid="onramp-resume"
            onClick={() => ui.resumeOnramp?.()}
          >
            {stage.windowOpen ? onrampTexts.reopen : onrampTexts.resume}
          </button>
        )}
        {stage.stage === 'failed' && (
          <button type="button" className="button" onClick={() => ui.retryOnramp?.()}>
            {onrampTexts.retry}
          </button>
        )}
        <button
          type="button"
          className={stage.stage === 'arrived' ? 'button' : 'button button-secondary'}
          data-testid="onramp-done"
          onClick={() => ui.doneOnramp?.()}
        >
          {back}
        </button>
      </div>
    </div>
  )
}

/** A decimal without the zeros a provider pads it with (`0.03275000` → `0.03275`). */
function trimmed(amount: string): string {
  return amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount
}
