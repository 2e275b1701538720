import { useId } from 'react'
import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { formatExact } from '../../shared/Amount.ts'
import { texts } from '../../shared/texts.ts'
import { Sent, transactionUrl } from '../../shared/ui/Sent.tsx'
import type { Plan } from './Plan.ts'
import { routeText } from './Route.ts'
import type { SwapSlice, SwapUi } from './runtime.ts'
import { swapTexts } from './texts.ts'

const amount = formatExact

/**
 * The swap before it is signed: what is paid, what is received at least, the balance changes the simulation
 * shows; an approval step first when the allowance is short (exactly the amount, or unlimited by choice);
 * then the swap, and its way to the chain.
 */
export default function SwapPreview({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<SwapSlice>
  ui: CoreUi & Partial<SwapUi>
}) {
  const id = useId()
  const { swap, origin } = snapshot
  if (!swap) return <div className="view" />
  const { step } = swap
  if (step.step === 'form')
    return (
      <div className="view">
        <p className="error-text" role="alert">
          {step.error ?? ''}
        </p>
        <div className="actions">
          <button type="button" className="button button-secondary" onClick={() => ui.back()}>
            {texts.back}
          </button>
        </div>
      </div>
    )
  const { plan } = step
  const { from, to } = plan.ask
  const paying = BigInt(plan.quote.fromAmount)
  const busy = step.step === 'review' && step.busy
  const approving = Boolean(plan.approval && !plan.approval.done)
  const action = approving ? swapTexts.approve(from.symbol) : swapTexts.swap
  const confirm = () => void ui.confirmSwap?.()
  return (
    <div className="view swap-preview">
      <dl className="summary" data-testid="swap-summary">
        <dt>{swapTexts.pay}</dt>
        <dd data-testid="swap-preview-pay">{amount(paying, from)}</dd>
        <dt>{swapTexts.receive}</dt>
        <dd data-testid="swap-preview-receive">{amount(BigInt(plan.swap.toAmount), to)}</dd>
        <dt>{swapTexts.minimum}</dt>
        <dd data-testid="swap-preview-minimum" title={swapTexts.minimumNote(plan.slippage)}>
          {amount(BigInt(plan.swap.minimumToAmount), to)}
        </dd>
        <dt>{swapTexts.priceImpact}</dt>
        <dd>{`${plan.quote.priceImpact.toFixed(2)} %`}</dd>
        <dt>{swapTexts.venue}</dt>
        <dd data-testid="swap-preview-venue">{plan.swap.venue.name}</dd>
        <dt>{swapTexts.route}</dt>
        <dd data-testid="swap-preview-route">{routeText(plan.swap.route, plan.swap.fees, swap.tokens)}</dd>
      </dl>
      <Changes plan={plan} />
      {step.step === 'sent' ? (
        <Sent
          id={step.id}
          status={step.status}
          labels={{
            pending: swapTexts.submitted,
            confirmed: swapTexts.confirmed,
            failed: swapTexts.failedOnChain,
          }}
          testId="swap-status"
          url={transactionUrl(swap.network?.explorer, step.id)}
          onDone={() => ui.doneSwap?.()}
          onRetry={() => ui.retrySwap?.()}
        />
      ) : (
        <>
          {plan.approval && (
            <fieldset className="swap-approval" disabled={busy || plan.approval.done}>
              <legend className="label">
                {plan.approval.done ? swapTexts.approved : swapTexts.approveTitle}
              </legend>
              <label className="choice">
                <input
                  type="radio"
                  name={`${id}-approval`}
                  checked={swap.approval === 'exact'}
                  onChange={() => ui.chooseApproval?.('exact')}
                />
                {swapTexts.approveExact(amount(paying, from))}
              </label>
              <label className="choice">
                <input
                  type="radio"
                  name={`${id}-approval`}
                  checked={swap.approval === 'unlimited'}
                  onChange={() => ui.chooseApproval?.('unlimited')}
                />
                {swapTexts.approveUnlimited}
              </label>
              <p className="muted">{swapTexts.approveNote}</p>
            </fieldset>
          )}
          <p className="error-text" role="alert" data-testid="swap-preview-error">
            {step.error ?? ''}
          </p>
          <p className="muted" aria-live="polite">
            {busy ? (approving ? swapTexts.approving : swapTexts.swapping) : ''}
          </p>
          <Unverified
            question={() => ({
              title: texts.swap.previewTitle,
              origin: origin ?? '',
              question: `${action}: ${amount(paying, from)} → ${amount(BigInt(plan.swap.minimumToAmount), to)}`,
              choices: [{ id: 'swap', label: action }],
              cancel: texts.guard.cancel,
            })}
            onChoice={confirm}
          />
          <div className="actions actions-row">
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => ui.back()}
            >
              {texts.back}
            </button>
            {/* The allowance, then the swap: two approvals, each waited for. */}
            <ApproveButton
              className="button"
              data-testid="swap-confirm"
              approval={action}
              disabled={busy}
              onClick={confirm}
            >
              {action}
            </ApproveButton>
          </div>
        </>
      )}
    </div>
  )
}

/** The simulated balance changes of the account, or why there are none to show. */
function Changes({ plan }: { plan: Plan }) {
  const { simulation } = plan
  const tokens = [plan.ask.from, plan.ask.to]
  const tokenOf = (address: string) =>
    tokens.find((token) => token.id.toLowerCase().endsWith(address.toLowerCase()))
  return (
    <section aria-labelledby="swap-changes">
      <h2 className="label" id="swap-changes">
        {swapTexts.simulation}
      </h2>
      {simulation.ok === true ? (
        <ul className="plain-list" data-testid="swap-changes">
          {[...simulation.changes].map(([address, delta]) => {
            const token = tokenOf(address)
            return token && delta !== 0n ? (
              <li key={address} className="token" data-symbol={token.symbol}>
                <span className="token-name">{token.symbol}</span>
                <span className={delta < 0n ? 'change-out' : 'change-in'}>{amount(delta, token, true)}</span>
              </li>
            ) : null
          })}
        </ul>
      ) : (
        <p className="muted">{swapTexts.notSimulated}</p>
      )}
    </section>
  )
}
