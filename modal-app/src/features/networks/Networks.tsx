import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import { group } from './groups.ts'
import { NetworkList } from './NetworkList.tsx'
import type { NetworksSlice, NetworksUi } from './types.ts'

/**
 * Every configured network to switch to, under its namespace (EVM, Solana, Bitcoin), each namespace's
 * current one marked. Switching in a namespace with no account makes that network the one it connects on.
 */
export default function Networks({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<NetworksSlice>
  ui: CoreUi & NetworksUi
}) {
  // Until the feature's logic is in, the core's list stands in, with the network the modal shows.
  const groups = snapshot.networkGroups ?? group(snapshot.networks, () => snapshot.activeNetworkId)
  return (
    <div className="view">
      {groups.map(({ namespace, networks, current }) => (
        <section key={namespace} className="network-group" aria-labelledby={`networks-${namespace}`}>
          <h2 className="label" id={`networks-${namespace}`}>
            {texts.namespaces[namespace]}
          </h2>
          <NetworkList networks={networks} active={current} label={texts.namespaces[namespace]} ui={ui} />
        </section>
      ))}
    </div>
  )
}
