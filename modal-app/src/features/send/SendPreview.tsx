import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { formatExact } from '../../shared/Amount.ts'
import { formatFiat, truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import { Sent, transactionUrl } from '../../shared/ui/Sent.tsx'
import type { Asset, Preview } from './Family.ts'
import type { Holding } from './Flow.ts'
import type { SendSlice, SendUi } from './runtime.ts'
import { sendTexts } from './texts.ts'

const amount = formatExact

/** US dollars for base units of a holding with a price; empty when the API knows none. */
function fiat(value: bigint, holding: Holding | undefined): string {
  if (!holding?.price) return ''
  return formatFiat((Number(value) / 10 ** holding.decimals) * holding.price)
}

/** An address, shortened, with the whole of it for screen readers and in the title. */
function Address({ value }: { value: string }) {
  return (
    <span title={value}>
      <span aria-hidden="true">{truncateAddress(value)}</span>
      <span className="sr-only">{value}</span>
    </span>
  )
}

/**
 * What the send does before it is signed: from, to, amount and value, the network fee, the balance changes
 * the simulation shows; then Send (the wallet signs), and the transaction's way to the chain.
 */
export default function SendPreview({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<SendSlice>
  ui: CoreUi & Partial<SendUi>
}) {
  const { send, origin } = snapshot
  if (!send) return <div className="view" />
  if (send.step.step === 'form')
    // The account or network changed under the review (or a send is still with the wallet): say so.
    return (
      <div className="view">
        <p className="error-text" role="alert">
          {send.step.error ?? ''}
        </p>
        <p className="muted" role="status">
          {send.waiting ? sendTexts.waiting : ''}
        </p>
        <div className="actions">
          <button type="button" className="button button-secondary" onClick={() => ui.back()}>
            {texts.back}
          </button>
        </div>
      </div>
    )
  const { step, holdings, network } = send
  const { preview } = step
  const { draft } = preview
  const holding = holdings.find((h) => h.key === (draft.asset.address ?? 'native'))
  const native = holdings.find((h) => h.key === 'native')
  const nativeAsset: Asset = native ?? {
    symbol: network?.nativeCurrency.symbol ?? '',
    decimals: network?.nativeCurrency.decimals ?? 0,
  }
  const signing = step.step === 'preview' && step.busy
  return (
    <div className="view send-preview">
      <dl className="summary" data-testid="send-summary">
        <dt>{sendTexts.from}</dt>
        <dd>
          <Address value={draft.from} />
        </dd>
        <dt>{sendTexts.to}</dt>
        <dd data-testid="send-preview-to">
          <Address value={draft.to} />
        </dd>
        <dt>{sendTexts.amount}</dt>
        <dd data-testid="send-preview-amount">
          {amount(draft.amount, draft.asset)} <span className="muted">{fiat(draft.amount, holding)}</span>
        </dd>
        <dt>{sendTexts.fee}</dt>
        <dd data-testid="send-preview-fee">
          {amount(preview.fee, nativeAsset)} <span className="muted">{fiat(preview.fee, native)}</span>
        </dd>
        {preview.details.map((line) => (
          <Detail key={line.label + line.value} label={line.label} value={line.value} />
        ))}
      </dl>
      <Changes preview={preview} />
      {step.step === 'sent' ? (
        <Sent
          id={step.id}
          status={step.status}
          labels={{
            pending: sendTexts.submitted,
            confirmed: sendTexts.confirmed,
            failed: sendTexts.failedOnChain,
          }}
          testId="send-status"
          url={transactionUrl(network?.explorer, step.id)}
          onDone={() => ui.doneSend?.()}
        />
      ) : (
        <>
          <p className="error-text" role="alert">
            {step.error ?? ''}
          </p>
          <p className="muted" aria-live="polite">
            {signing ? sendTexts.signing : ''}
          </p>
          <Unverified
            question={() => ({
              title: texts.send.previewTitle,
              origin: origin ?? '',
              question: `${sendTexts.send} ${amount(draft.amount, draft.asset)} → ${draft.to}`,
              choices: [{ id: 'send', label: sendTexts.send }],
              cancel: texts.guard.cancel,
            })}
            onChoice={() => void ui.confirmSend?.()}
          />
          <div className="actions actions-row">
            <button
              type="button"
              className="button button-secondary"
              disabled={signing}
              onClick={() => ui.back()}
            >
              {sendTexts.cancel}
            </button>
            <ApproveButton className="button" disabled={signing} onClick={() => void ui.confirmSend?.()}>
              {sendTexts.send}
            </ApproveButton>
          </div>
        </>
      )}
    </div>
  )
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  )
}

/** The simulated balance changes, one row per address and asset. */
function Changes({ preview }: { preview: Preview }) {
  return (
    <section aria-labelledby="send-changes">
      <h2 className="label" id="send-changes">
        {sendTexts.simulation}
      </h2>
      <ul className="plain-list" data-testid="send-changes">
        {preview.changes.map((change) => (
          <li key={`${change.address} ${change.asset.address ?? ''}`} className="token">
            <Address value={change.address} />
            <span className={change.delta < 0n ? 'change-out' : 'change-in'}>
              {amount(change.delta, change.asset, true)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
