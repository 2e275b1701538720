import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { formatUnits } from '../../shared/Amount.ts'
import { formatQuantity } from '../../shared/format.ts'
import { AmountField, Form, Loading, Unavailable, useFieldIds } from '../../shared/ui/Form.tsx'
import { Picker } from '../../shared/ui/Picker.tsx'
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
  const field = useFieldIds()
  const { send } = snapshot
  if (!send) return <Loading />
  if (send.unsupported) return <Unavailable message={send.unsupported} />
  const { form, step, holdings } = send
  const busy = (step.step === 'form' && step.busy) || send.waiting
  const error = step.step === 'form' ? step.error : undefined
  const holding = holdings.find((h) => h.key === form.asset)
  return (
    <Form
      className="send-form"
      busy={send.loading || busy}
      onSubmit={() => void ui.reviewSend?.()}
      error={error}
      errorId={field('error')}
      status={send.waiting ? sendTexts.waiting : ''}
      submit={{ label: busy ? sendTexts.preparing : sendTexts.review, disabled: busy || send.loading }}
    >
      <Picker
        id={field('asset')}
        label={sendTexts.token}
        testId="send-asset"
        value={form.asset}
        disabled={send.loading}
        recent={send.network && `token:${send.network.id}`}
        options={holdings.map((h) => ({
          value: h.key,
          label: h.symbol,
          detail: h.name,
          amount: balanceOf(h),
          icon: { url: h.iconUrl, seed: `${send.network?.id}:${h.key}` },
          keywords: h.address ? [h.address] : undefined,
        }))}
        onChange={(value) => ui.editSend?.('asset', value)}
      />
      <AmountField
        id={field('amount')}
        label={sendTexts.amount}
        testId="send-amount"
        value={form.amount}
        describedBy={[holding && field('balance'), error && field('error')]}
        invalid={!!error}
        onChange={(value) => ui.editSend?.('amount', value)}
      >
        <button
          type="button"
          className="button button-secondary"
          disabled={!holding || busy}
          onClick={() => void ui.maxSend?.()}
        >
          {sendTexts.max}
        </button>
      </AmountField>
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
        <Picker
          id={field('fee')}
          label={sendTexts.feeRate}
          value={String(form.feeRate ?? '')}
          options={[
            { value: '', label: sendTexts.defaultFeeRate },
            ...send.feeRates.map((rate) => ({
              value: String(rate.satPerVbyte),
              label: rate.label,
              amount: `${rate.satPerVbyte} sat/vB`,
            })),
          ]}
          onChange={(value) => ui.editSend?.('feeRate', value)}
        />
      )}
    </Form>
  )
}
