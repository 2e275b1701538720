import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { NetworkList } from './NetworkList.tsx'
import type { NetworksUi } from './types.ts'

/** The configured networks to switch to. */
export default function Networks({ snapshot, ui }: { snapshot: CoreSnapshot; ui: CoreUi & NetworksUi }) {
  return (
    <div className="view">
      <NetworkList networks={snapshot.networks} active={snapshot.activeNetworkId} ui={ui} />
    </div>
  )
}
