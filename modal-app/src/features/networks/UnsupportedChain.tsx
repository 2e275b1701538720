import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import { NetworkList } from './NetworkList.tsx'
import type { NetworksUi } from './types.ts'

/** The wallet is on a network the app does not support: switch to a configured one, or disconnect. */
export default function UnsupportedChain({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot
  ui: CoreUi & NetworksUi
}) {
  return (
    <div className="view">
      <p className="muted">{texts.unsupportedChain.detail}</p>
      <NetworkList networks={snapshot.networks} ui={ui} />
      <button type="button" className="row row-danger" onClick={() => void ui.disconnect()}>
        <span className="row-label">{texts.account.disconnect}</span>
      </button>
    </div>
  )
}
