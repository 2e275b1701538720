import { formatExact } from '../../shared/Amount.ts'
import { truncateAddress } from '../../shared/format.ts'
import { ExternalIcon } from '../../shared/ui/linkIcons.tsx'
import { transactionUrl } from '../../shared/ui/Sent.tsx'
import { sentTexts } from '../../shared/ui/sentTexts.ts'
import type { CallsSlice, CallsUi } from './runtime.ts'
import { callsTexts } from './texts.ts'
import type { BatchView, Row } from './View.ts'

/**
 * A dApp's batch (`wallet_showCallsStatus`): who sent it, from which account on which network, whether it
 * runs atomically or one call at a time, then each call with where it is and its transaction on the
 * network's explorer.
 */
export default function CallsStatus({ snapshot, ui }: { snapshot: CallsSlice; ui: Partial<CallsUi> }) {
  const batch = snapshot.calls
  if (!batch) return <div className="view view-loading" aria-busy="true" />
  const count = batch.rows.length
  return (
    <div className="view" data-testid="calls" data-status={batch.status ?? ''}>
      {batch.origin && <p className="origin">{callsTexts.requestedBy(batch.origin)}</p>}
      <dl className="facts">
        <div className="fact">
          <dt>{callsTexts.from}</dt>
          <dd title={batch.from}>{truncateAddress(batch.from)}</dd>
        </div>
        {batch.network && (
          <div className="fact">
            <dt>{callsTexts.network}</dt>
            <dd>{batch.network.name}</dd>
          </div>
        )}
      </dl>
      <p className="muted">{batch.atomic ? callsTexts.atomic : callsTexts.oneByOne}</p>
      <p role="status" data-testid="calls-status">
        {summary(batch.status)}
      </p>
      <ol className="plain-list" aria-label={callsTexts.list}>
        {batch.rows.map((row, index) => (
          <CallRow
            // The calls of a batch never change order.
            // biome-ignore lint/suspicious/noArrayIndexKey: a call's place in the batch is its identity.
            key={index}
            row={row}
            label={callsTexts.call(index + 1, count)}
            batch={batch}
          />
        ))}
      </ol>
      <div className="actions">
        <button type="button" className="button" onClick={() => ui.doneCalls?.()}>
          {callsTexts.done}
        </button>
      </div>
    </div>
  )
}

function CallRow({ row, label, batch }: { row: Row; label: string; batch: BatchView }) {
  const url = row.hash ? transactionUrl(batch.network?.explorer, row.hash) : undefined
  const currency = batch.network?.nativeCurrency ?? { decimals: 18, symbol: 'ETH' }
  return (
    <li className="fact" data-testid="calls-row" data-state={row.state}>
      <strong>{label}</strong>
      <span title={row.to}>{row.to ? callsTexts.to(truncateAddress(row.to)) : callsTexts.deploy}</span>
      {row.value !== undefined && row.value > 0n && (
        <span>{callsTexts.value(formatExact(row.value, currency))}</span>
      )}
      {row.selector && <span className="muted">{callsTexts.data(row.selector)}</span>}
      <span>{callsTexts.state[row.state]}</span>
      {url && (
        <a className="row" href={url} target="_blank" rel="noopener noreferrer">
          <span className="row-label">{sentTexts.explorer}</span>
          <span className="sr-only"> {sentTexts.newTab}</span>
          <ExternalIcon />
        </a>
      )}
    </li>
  )
}

function summary(status: number | undefined): string {
  if (status === undefined || status < 200) return callsTexts.status.pending
  if (status < 300) return callsTexts.status.confirmed
  if (status === 500) return callsTexts.status.failed
  if (status === 600) return callsTexts.status.partial
  return callsTexts.status.offchain
}
