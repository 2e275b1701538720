import type { Network } from '../../shared/Network.ts'
import { texts } from '../../shared/texts.ts'
import { CheckIcon } from '../../shared/ui/icons.tsx'
import { onListKeyDown } from '../../shared/ui/keys.ts'
import { NetworkIcon } from '../../shared/ui/NetworkIcon.tsx'
import type { NetworksUi } from './types.ts'

/**
 * Networks as buttons named by the network (and "Testnet" where it is one); the current one is marked.
 * Arrow keys, Home and End move along the list.
 */
export function NetworkList({
  networks,
  active,
  label = texts.networks.title,
  ui,
}: {
  networks: readonly Network[]
  active?: string | undefined
  /** The list's accessible name. */
  label?: string
  ui: NetworksUi
}) {
  return (
    <ul className="list network-list" aria-label={label} onKeyDown={onListKeyDown}>
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
              <NetworkIcon network={network} />
              <span className="row-label">{network.name}</span>
              {network.testnet && <span className="tag">{texts.networks.testnet}</span>}
              {current && <CheckIcon />}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
