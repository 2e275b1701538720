/**
 * The layout the modal's forms share (Send, Swap, Buy): a view-wide form whose error line, status line and
 * primary button stand at its foot; an amount field with what sits beside it (a currency, a token, Max);
 * the quote's terms as rows (a choice of one is `Picker.tsx`'s). One place decides their roles and labels: the error is an
 * alert the fields point to, the status is read out politely, a field's label names it. Only the features'
 * lazy views import it.
 */
import { type FormEvent, Fragment, type ReactNode, useId } from 'react'

/**
 * The ids of a form's fields, unique on the page, by name.
 * @example
 * const field = useFieldIds()
 * <p id={field('error')} />
 */
export function useFieldIds(): (name: string) => string {
  const ids = useId()
  return (name) => `${ids}-${name}`
}

/** A form's view while its feature reads what it needs. */
export function Loading() {
  return <div className="view view-loading" aria-busy="true" />
}

/** A form's view where it cannot run (an unsupported network, no API): why, read out at once. */
export function Unavailable({ message, testId }: { message: string; testId?: string | undefined }) {
  return (
    <div className="view">
      <p className="error-text" role="alert" data-testid={testId}>
        {message}
      </p>
    </div>
  )
}

export type FormProps = {
  /** The form's own class beside `view` (`send-form`). */
  className?: string | undefined
  /** Reading or working: the form is `aria-busy`. */
  busy: boolean
  /** Enter or the button; the browser's own submission is prevented. Runs within the click, so it may open a window. */
  onSubmit(): void
  /** What is wrong, read out at once; none leaves the line empty, in place, for fields that name it. */
  error: string | undefined
  /** The error line's id, which fields name in `aria-describedby`. */
  errorId: string
  /** What is going on (quoting, waiting), read out politely; '' for nothing. */
  status: string
  /** The primary button. */
  submit: { label: string; disabled: boolean; testId?: string | undefined }
  /** The error and status lines' test ids. */
  testIds?: { error?: string | undefined; status?: string | undefined } | undefined
  /** Lines between the status and the button. */
  notes?: ReactNode
  children: ReactNode
}

/**
 * A form filling its view, its fields first, then the error, the status and the primary button.
 * @example
 * <Form busy={busy} onSubmit={review} error={error} errorId={field('error')} status="" submit={{ label: 'Review', disabled: busy }}>
 *   <AmountField … />
 * </Form>
 */
export function Form(props: FormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    props.onSubmit()
  }
  return (
    <form
      className={props.className ? `view ${props.className}` : 'view'}
      onSubmit={submit}
      noValidate
      aria-busy={props.busy}
    >
      {props.children}
      <p className="error-text" role="alert" id={props.errorId} data-testid={props.testIds?.error}>
        {props.error ?? ''}
      </p>
      <p className="muted" role="status" data-testid={props.testIds?.status}>
        {props.status}
      </p>
      {props.notes}
      <div className="actions">
        <button
          type="submit"
          className="button"
          data-testid={props.submit.testId}
          disabled={props.submit.disabled}
        >
          {props.submit.label}
        </button>
      </div>
    </form>
  )
}

/** The ids of the lines that describe a field, those it has now; undefined for none. */
function describedBy(ids: readonly (string | false | undefined)[] | undefined): string | undefined {
  return ids?.filter(Boolean).join(' ') || undefined
}

/**
 * An amount, labelled, typed with the decimal keypad, and what stands beside it: its currency, its token or
 * Max. The label's id is `<id>-label`, for a section the field heads.
 * @example
 * <AmountField id={field('amount')} label="Amount" value={amount} onChange={edit} describedBy={[field('error')]}>
 *   <button type="button" className="button button-secondary" onClick={max}>Max</button>
 * </AmountField>
 */
export function AmountField(props: {
  id: string
  label: string
  value: string
  onChange(value: string): void
  testId?: string | undefined
  placeholder?: string | undefined
  /** The ids of the lines that describe the amount (balance, limits, the error); false or undefined skip one. */
  describedBy?: readonly (string | false | undefined)[] | undefined
  invalid?: boolean | undefined
  /** Beside the amount. */
  children: ReactNode
}) {
  const { id } = props
  return (
    <>
      <label className="label" id={`${id}-label`} htmlFor={id}>
        {props.label}
      </label>
      <div className="amount-row">
        <input
          id={id}
          className="search amount-input"
          data-testid={props.testId}
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder={props.placeholder}
          value={props.value}
          aria-describedby={describedBy(props.describedBy)}
          aria-invalid={props.invalid || undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
        {props.children}
      </div>
    </>
  )
}

type Term = {
  label: string
  value: ReactNode
  testId?: string | undefined
  /** More about the value, on hover. */
  title?: string | undefined
}

/**
 * Terms as label and value rows (a quote's rate and fees, a review's amounts); `stale` marks them busy
 * while a newer answer is on its way.
 */
export function Summary({
  terms,
  testId,
  stale,
}: {
  terms: readonly Term[]
  testId?: string | undefined
  stale?: boolean | undefined
}) {
  return (
    <dl className="summary" data-testid={testId} data-stale={stale} aria-busy={stale}>
      {terms.map((term) => (
        <Fragment key={term.label}>
          <dt>{term.label}</dt>
          <dd data-testid={term.testId} title={term.title}>
            {term.value}
          </dd>
        </Fragment>
      ))}
    </dl>
  )
}
