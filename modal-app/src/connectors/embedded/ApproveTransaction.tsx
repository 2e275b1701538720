import type { ViewProps } from '../../core/Feature.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { texts } from '../../shared/texts.ts'
import { approveTexts } from './approveTexts.ts'
import type { ApprovalSlice, ApprovalUi, Description, Row } from './Describe.ts'

/** The approval window's question holds at most 300 characters (`core/approval/protocol.ts`). */
const questionMax = 300

/**
 * What a dApp asks the embedded wallet to sign, before it is signed: the page that asks, what it asks in
 * words, the warnings, then Reject or Approve. Approve waits for the clickjacking guard; where the guard
 * cannot see the card, the approval window of the modal's own origin asks instead. Focus lands on the
 * message (to read it) or on Reject, never on Approve.
 */
export default function ApproveTransaction({ snapshot, ui }: ViewProps) {
  const approval = (snapshot as ApprovalSlice).embeddedWallet?.approval
  const actions = ui as Partial<ApprovalUi>
  if (!approval) return <div className="view" />
  const { origin, description, busy, error, pending = 1 } = approval
  const approve = () => actions.approveRequest?.()
  return (
    <div className="view" aria-busy={busy}>
      <p className="origin">
        <strong>{origin}</strong> {approveTexts.asks}
      </p>
      <h2 className="lead" id="approve-title">
        {description.title}
      </h2>
      <Rows rows={description.rows} />
      {description.message && <Message {...description.message} />}
      <Warnings warnings={description.warnings} />
      <p className="error-text" role="alert">
        {error ?? ''}
      </p>
      <p className="muted" aria-live="polite">
        {busy ? approveTexts.busy : ''}
      </p>
      {pending > 1 && <p className="muted">{approveTexts.pending(pending - 1)}</p>}
      {!busy && (
        <Unverified
          question={() => ({
            title: description.title,
            origin,
            question: questionOf(description),
            choices: [{ id: 'approve', label: approveTexts.approve }],
            cancel: texts.guard.cancel,
          })}
          onChoice={approve}
        />
      )}
      <div className="actions actions-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          aria-busy={busy}
          onClick={() => actions.rejectRequest?.()}
        >
          {approveTexts.reject}
        </button>
        <ApproveButton
          className="button"
          approval={description}
          disabled={busy}
          aria-busy={busy}
          onClick={approve}
        >
          {approveTexts.approve}
        </ApproveButton>
      </div>
    </div>
  )
}

function Rows({ rows }: { rows: readonly Row[] }) {
  if (rows.length === 0) return null
  return (
    <dl className="summary" aria-label={approveTexts.details}>
      {rows.map((row, index) => (
        // Labels repeat (two Compute Budget instructions), so the position keeps keys apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are a fixed list for one request.
        <Pair key={index} {...row} />
      ))}
    </dl>
  )
}

function Pair({ label, value, mono }: Row) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={mono ? 'receive-address' : undefined}>{value}</dd>
    </>
  )
}

/** The signed text, whole, in a region that scrolls; focusable so keyboard users can scroll it too. */
function Message({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <h3 className="label" id="approve-message-label">
        {label}
      </h3>
      <section
        className="approve-message"
        aria-labelledby="approve-message-label"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable).
        tabIndex={0}
      >
        <pre className="receive-address">{text}</pre>
      </section>
    </div>
  )
}

function Warnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null
  return (
    <div className="alert" role="alert">
      <p className="alert-title">{approveTexts.warningsLabel}</p>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </div>
  )
}

/** The approval window shows one line: the title, the warnings, then as many rows as fit. */
function questionOf({ title, warnings, rows }: Description): string {
  const parts = [title, ...warnings, ...rows.map((row) => `${row.label}: ${row.value}`)]
  const text = parts.join(' · ')
  return text.length <= questionMax ? text : `${text.slice(0, questionMax - 1)}…`
}
