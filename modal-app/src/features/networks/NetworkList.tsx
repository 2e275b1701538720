import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import { CheckIcon } from '../../shared/ui/icons.tsx'
import { onListKeyDown } from '../../shared/ui/keys.ts'
import type { NetworksUi } from './types.ts'

/** Configured networks as buttons named by the network; the active one is marked current. */
export function NetworkList({
  networks,
  active,
  ui,
}: {
  networks: Network[]
  active?: string | undefined
  ui: NetworksUi
}) {
  return (
    <ul className="list" aria-label={texts.networks.title} onKeyDown={onListKeyDown}>
      {networks.map((network) => {
        const current = network.id === active
        return (
          <li key={network.id}>
            <button
              type="button"
              className="row"
              aria-current={current ? 'true' : undefined}
              onClick={() => void ui.switchNetwork(network.id)}
            >
              <span className="network-dot" aria-hidden="true" />
              <span className="row-label">{network.name}</span>
              {current && <CheckIcon />}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
