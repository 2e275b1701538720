import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { ApproveButton } from '../../core/ui/Guard.tsx'
import type { NamesSlice, NamesUi } from './runtime.ts'
import { namesTexts } from './texts.ts'

/** docs/behaviour.md §2's RegisterAccountNameSuccess: the name is the account's. */
export default function RegisterAccountNameSuccess({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<NamesSlice>
  ui: Partial<NamesUi>
}) {
  const names = snapshot.names
  const name = names?.registered ?? ''
  return (
    <div className="view view-center">
      <p className="lead" role="status" data-testid="name-registered">
        {namesTexts.success(name)}
      </p>
      <p className="muted">{namesTexts.successNote}</p>
      {names?.primary === 'set' ? (
        <p role="status" data-testid="name-primary">
          {namesTexts.primarySet}
        </p>
      ) : (
        <>
          <p className="muted">{namesTexts.primaryNote}</p>
          <ApproveButton
            type="button"
            className="button button-secondary"
            disabled={names?.primary === 'sending'}
            onClick={() => void ui.setPrimaryName?.()}
          >
            {names?.primary === 'sending' ? namesTexts.primarySending : namesTexts.makePrimary}
          </ApproveButton>
        </>
      )}
      <p className="error-text" role="alert">
        {names?.primaryError ?? ''}
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => ui.doneName?.()}>
          {namesTexts.done}
        </button>
      </div>
    </div>
  )
}
