import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import type { PaySlice, PayUi } from './runtime.ts'
import { payTexts } from './texts.ts'

/** Buy's action, when the host left it on: Pay offers it for a shortfall. */
type BuyUi = {
  showOnramp?: (wanted: { asset: string; network: string; crypto?: number; returnTo?: string }) => void
}

/**
 * A payment a dApp asked for: who is paid (their name when known, the address in full), the amount in the
 * asset and in dollars, the network, the paying account's balance; then Confirm, or Buy for a shortfall.
 * Confirm waits for the clickjacking guard (where it cannot see the card, the approval window of the
 * modal's own origin asks instead). After sending: pending until the chain confirms it, then confirmed or
 * failed.
 */
export default function Pay({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & PaySlice
  ui: Partial<PayUi> & BuyUi
}) {
  const { pay } = snapshot
  if (!pay) return <div className="view view-loading" aria-busy="true" />
  const { step, asset } = pay
  const symbol = asset?.symbol ?? ''
  return (
    <div className="view" data-testid="pay" data-step={step.step}>
      {pay.origin && <p className="origin">{payTexts.requestedBy(pay.origin)}</p>}
      <dl className="facts">
        <div className="fact">
          <dt>{payTexts.to}</dt>
          <dd data-testid="pay-to" title={pay.payment.to}>
            {pay.name ? `${pay.name} (${truncateAddress(pay.payment.to)})` : pay.payment.to}
          </dd>
        </div>
        <div className="fact">
          <dt>{payTexts.amount}</dt>
          <dd data-testid="pay-amount">
            {`${pay.amount ?? pay.payment.amount} ${symbol}`}
            {pay.fiat && <span className="muted">{` · ${pay.fiat}`}</span>}
          </dd>
        </div>
        <div className="fact">
          <dt>{payTexts.network}</dt>
          <dd>{pay.network.name}</dd>
        </div>
        {pay.from && (
          <div className="fact">
            <dt>{payTexts.from}</dt>
            <dd title={pay.from}>{truncateAddress(pay.from)}</dd>
          </div>
        )}
      </dl>
      <Body pay={pay} ui={ui} />
    </div>
  )
}

function Body({ pay, ui }: { pay: NonNullable<PaySlice['pay']>; ui: Partial<PayUi> & BuyUi }) {
  const { step } = pay
  const symbol = pay.asset?.symbol ?? ''
  switch (step.step) {
    case 'loading':
      return (
        <p className="muted" role="status" aria-busy="true">
          {payTexts.loading}
        </p>
      )
    case 'connect':
      return (
        <div className="actions">
          <p role="status">{payTexts.connect}</p>
          <button type="button" className="button" onClick={() => ui.connectForPay?.()}>
            {payTexts.connectButton}
          </button>
        </div>
      )
    case 'switch':
      return (
        <div className="actions">
          <p role="status">{payTexts.switchNetwork(pay.network.name)}</p>
          <button type="button" className="button" onClick={() => void ui.switchForPay?.()}>
            {payTexts.switchButton(pay.network.name)}
          </button>
        </div>
      )
    case 'unreachable':
      return (
        <div className="actions">
          <p className="error-text" role="alert">
            {payTexts.unreachable}
          </p>
          <button type="button" className="button" onClick={() => ui.retryPay?.()}>
            {payTexts.retry}
          </button>
        </div>
      )
    case 'sent':
      return (
        <div className="send-result">
          <p role="status" data-testid="pay-status" data-status={step.status} data-hash={step.hash}>
            {step.status === 'pending'
              ? payTexts.pending
              : step.status === 'confirmed'
                ? payTexts.confirmed
                : payTexts.failedOnChain}
          </p>
          {step.status !== 'pending' && (
            <div className="actions">
              <button type="button" className="button" onClick={() => ui.donePay?.()}>
                {payTexts.done}
              </button>
            </div>
          )}
        </div>
      )
    case 'review': {
      const short = pay.short
      const balance = pay.asset ? `${formatBalance(step.balance, pay.asset.decimals)} ${symbol}` : ''
      return (
        <>
          <p className="muted" data-testid="pay-balance">
            {payTexts.balance(balance)}
          </p>
          <p role="status" data-testid="pay-funding" className={short ? 'error-text' : 'muted'}>
            {short ? payTexts.short(`${short} ${symbol}`) : payTexts.funded}
          </p>
          <p className="error-text" role="alert" data-testid="pay-error">
            {step.error ?? ''}
          </p>
          <p className="muted">{payTexts.fee}</p>
          {!short && !step.busy && (
            <Unverified
              question={() => ({
                title: payTexts.title,
                origin: pay.origin ?? '',
                question: questionOf(pay),
                choices: [{ id: 'pay', label: payTexts.confirm }],
                cancel: texts.guard.cancel,
              })}
              onChoice={() => void ui.confirmPay?.()}
            />
          )}
          <div className="actions">
            {short && 'showOnramp' in ui ? (
              <button
                type="button"
                className="button"
                data-testid="pay-buy"
                onClick={() =>
                  ui.showOnramp?.({
                    asset: symbol,
                    network: pay.network.id,
                    crypto: pay.shortValue,
                    returnTo: 'Pay',
                  })
                }
              >
                {payTexts.buy(`${short} ${symbol}`)}
              </button>
            ) : (
              <ApproveButton
                className="button"
                data-testid="pay-confirm"
                approval={pay.payment}
                disabled={step.busy || !!short}
                onClick={() => void ui.confirmPay?.()}
              >
                {step.busy ? payTexts.confirming : payTexts.confirm}
              </ApproveButton>
            )}
          </div>
        </>
      )
    }
  }
}

/** What the approval window asks: the amount, whom it pays and where, as the card's facts say them. */
function questionOf(pay: NonNullable<PaySlice['pay']>): string {
  const to = pay.name ? `${pay.name} (${pay.payment.to})` : pay.payment.to
  const amount = `${pay.amount ?? pay.payment.amount} ${pay.asset?.symbol ?? ''}`
  // The approval window's question holds at most 300 characters.
  return `${payTexts.amount}: ${amount} · ${payTexts.to}: ${to} · ${payTexts.network}: ${pay.network.name}`.slice(
    0,
    300,
  )
}

/** A balance to 6 decimals, truncated (never shown as more than it is). */
function formatBalance(value: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals)
  const whole = value / unit
  const fraction = (value % unit).toString().padStart(decimals, '0').slice(0, 6).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole.toString()
}
