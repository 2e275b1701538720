import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { texts } from '../../shared/texts.ts'
import { NetworkList } from './NetworkList.tsx'
import type { NetworksSlice, NetworksUi } from './types.ts'

/**
 * The EVM wallet is on a network the app does not support: this names it, and offers the configured EVM
 * networks to switch to, or to disconnect.
 */
export default function UnsupportedChain({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<NetworksSlice>
  ui: CoreUi & NetworksUi
}) {
  const { unsupportedNetwork } = snapshot
  const evm = snapshot.networkGroups?.find((entry) => entry.namespace === 'eip155')?.networks
  return (
    <div className="view">
      <p className="muted" data-testid="unsupported-chain">
        {unsupportedNetwork
          ? texts.unsupportedChain.current(unsupportedNetwork)
          : texts.unsupportedChain.detail}
      </p>
      <NetworkList networks={evm ?? snapshot.networks} ui={ui} />
      <button type="button" className="row row-danger" onClick={() => void ui.disconnect()}>
        <span className="row-label">{texts.account.disconnect}</span>
      </button>
    </div>
  )
}
