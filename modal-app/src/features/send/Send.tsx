import { type FormEvent, useId } from 'react'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { formatUnits } from '../../shared/Amount.ts'
import { formatQuantity } from '../../shared/format.ts'
import type { Holding } from './Flow.ts'
import type { SendSlice, SendUi } from './runtime.ts'
import { sendTexts } from './texts.ts'

/** A holding's balance as the form shows it: 3 decimals, truncated. */
const balanceOf = (holding: Holding) => formatQuantity(formatUnits(holding.balance, holding.decimals))

/** The Send form: token, amount (with Max), receiver, and for Bitcoin the fee rate; Review checks it all. */
export default function Send({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<SendSlice>
  ui: Partial<SendUi>
}) {
  const ids = useId()
  const { send } = snapshot
  if (!send) return <div className="view view-loading" aria-busy="true" />
  const { form, step, holdings } = send
  const busy = (step.step === 'form' && step.busy) || send.waiting
  const error = step.step === 'form' ? step.error : undefined
  const holding = holdings.find((h) => h.key === form.asset)
  const field = (name: string) => `${ids}-${name}`
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void ui.reviewSend?.()
  }
  if (send.unsupported)
    return (
      <div className="view">
        <p className="error-text" role="alert">
          {send.unsupported}
        </p>
      </div>
    )
  return (
    <form className="view send-form" onSubmit={submit} noValidate aria-busy={send.loading || busy}>
      <label className="label" htmlFor={field('asset')}>
        {sendTexts.token}
      </label>
      <select
        id={field('asset')}
        className="search"
        data-testid="send-asset"
        value={form.asset}
        disabled={send.loading}
        onChange={(event) => ui.editSend?.('asset', event.target.value)}
      >
        {holdings.map((h) => (
          <option key={h.key} value={h.key}>
            {`${h.symbol} · ${balanceOf(h)}`}
          </option>
        ))}
      </select>
      <label className="label" htmlFor={field('amount')}>
        {sendTexts.amount}
      </label>
      <div className="send-amount">
        <input
          id={field('amount')}
          className="search"
          data-testid="send-amount"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={form.amount}
          aria-describedby={
            [holding ? field('balance') : '', error ? field('error') : ''].join(' ').trim() || undefined
          }
          aria-invalid={error ? true : undefined}
          onChange={(event) => ui.editSend?.('amount', event.target.value)}
        />
        <button
          type="button"
          className="button button-secondary"
          disabled={!holding || busy}
          onClick={() => void ui.maxSend?.()}
        >
          {sendTexts.max}
        </button>
      </div>
      {holding && (
        <p className="muted" id={field('balance')}>
          {sendTexts.balance(`${balanceOf(holding)} ${holding.symbol}`)}
        </p>
      )}
      <label className="label" htmlFor={field('to')}>
        {sendTexts.receiver}
      </label>
      <input
        id={field('to')}
        className="search"
        data-testid="send-to"
        autoComplete="off"
        spellCheck={false}
        placeholder={
          send.network?.namespace === 'eip155' ? sendTexts.receiverOrName : sendTexts.receiverPlaceholder
        }
        aria-describedby={error ? field('error') : undefined}
        aria-invalid={error ? true : undefined}
        value={form.to}
        onChange={(event) => ui.editSend?.('to', event.target.value)}
      />
      {send.feeRates.length > 0 && (
        <>
          <label className="label" htmlFor={field('fee')}>
            {sendTexts.feeRate}
          </label>
          <select
            id={field('fee')}
            className="search"
            value={form.feeRate ?? ''}
            onChange={(event) => ui.editSend?.('feeRate', event.target.value)}
          >
            <option value="">{sendTexts.defaultFeeRate}</option>
            {send.feeRates.map((rate) => (
              <option key={rate.label} value={rate.satPerVbyte}>
                {`${rate.label} · ${rate.satPerVbyte} sat/vB`}
              </option>
            ))}
          </select>
        </>
      )}
      <p className="error-text" role="alert" id={field('error')}>
        {error ?? ''}
      </p>
      <p className="muted" role="status">
        {send.waiting ? sendTexts.waiting : ''}
      </p>
      <div className="actions">
        <button type="submit" className="button" disabled={busy || send.loading}>
          {busy ? sendTexts.preparing : sendTexts.review}
        </button>
      </div>
    </form>
  )
}
