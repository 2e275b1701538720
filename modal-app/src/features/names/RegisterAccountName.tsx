import { type FormEvent, useId } from 'react'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { ApproveButton } from '../../core/ui/Guard.tsx'
import type { NamesSlice, NamesUi } from './runtime.ts'
import { namesTexts } from './texts.ts'

/**
 * docs/behaviour.md §2's RegisterAccountName: the name, whether it is free (asked while typing), free variants to pick, and
 * Register, which the account's wallet signs.
 */
export default function RegisterAccountName({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<NamesSlice>
  ui: Partial<NamesUi>
}) {
  const id = useId()
  const { names } = snapshot
  if (!names) return <div className="view view-loading" aria-busy="true" />
  const { wanted } = names
  const free = wanted && !wanted.registered ? wanted.name : undefined
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (free) void ui.registerName?.(free)
  }
  return (
    <form className="view" onSubmit={submit} noValidate aria-busy={names.checking || names.busy}>
      <label className="label" htmlFor={`${id}-name`}>
        {namesTexts.label}
      </label>
      <input
        id={`${id}-name`}
        className="search"
        data-testid="name-input"
        autoComplete="off"
        spellCheck={false}
        value={names.text}
        aria-describedby={`${id}-hint ${id}-status`}
        aria-invalid={names.error || wanted?.registered ? true : undefined}
        onChange={(event) => ui.editName?.(event.target.value)}
      />
      <p className="muted" id={`${id}-hint`}>
        {namesTexts.hint}
      </p>
      <p className="muted" role="status" id={`${id}-status`} data-testid="name-status">
        {names.checking
          ? namesTexts.checking
          : wanted
            ? wanted.registered
              ? namesTexts.taken(wanted.name)
              : namesTexts.available(wanted.name)
            : ''}
      </p>
      {names.suggestions.length > 0 && (
        <section aria-labelledby={`${id}-suggestions`}>
          <h2 className="label" id={`${id}-suggestions`}>
            {namesTexts.suggestions}
          </h2>
          <ul className="plain-list">
            {names.suggestions.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  className="row"
                  disabled={names.busy}
                  onClick={() => ui.editName?.(name.split('.')[0] ?? name)}
                >
                  <span className="row-label">{name}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="error-text" role="alert" data-testid="name-error">
        {names.error ?? ''}
      </p>
      <p className="muted" aria-live="polite">
        {names.busy ? namesTexts.registering : ''}
      </p>
      <div className="actions">
        <ApproveButton type="submit" className="button" disabled={!free || names.busy || names.checking}>
          {namesTexts.register}
        </ApproveButton>
      </div>
    </form>
  )
}
