import type { CoreSnapshot } from '../../core/Snapshot.ts'
import type { NamesSlice, NamesUi } from './runtime.ts'
import { namesTexts } from './texts.ts'

/** SPEC's RegisterAccountNameSuccess: the name is the account's. */
export default function RegisterAccountNameSuccess({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<NamesSlice>
  ui: Partial<NamesUi>
}) {
  const name = snapshot.names?.registered ?? ''
  return (
    <div className="view view-center">
      <p className="lead" role="status" data-testid="name-registered">
        {namesTexts.success(name)}
      </p>
      <p className="muted">{namesTexts.successNote}</p>
      <div className="actions">
        <button type="button" className="button" onClick={() => ui.doneName?.()}>
          {namesTexts.done}
        </button>
      </div>
    </div>
  )
}
