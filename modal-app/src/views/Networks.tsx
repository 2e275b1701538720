import type { Snapshot, Ui } from '../Modal.ts'
import { NetworkList } from '../ui/NetworkList.tsx'

/** The configured networks to switch to. */
export default function Networks({ snapshot, ui }: { snapshot: Snapshot; ui: Ui }) {
  return (
    <div className="view">
      <NetworkList networks={snapshot.networks} active={snapshot.activeNetworkId} ui={ui} />
    </div>
  )
}
