import type { Snapshot, Ui } from '../Modal.ts'
import { texts } from '../texts.ts'
import { NetworkList } from '../ui/NetworkList.tsx'

/** The wallet is on a network the app does not support: switch to a configured one, or disconnect. */
export default function UnsupportedChain({ snapshot, ui }: { snapshot: Snapshot; ui: Ui }) {
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
