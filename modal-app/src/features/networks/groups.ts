/** The configured networks grouped by namespace, as the Networks view lists them. */
import { Caip } from '@airlock/bridge-protocol'
import type { Network } from '../../shared/Network.ts'
import type { NetworkGroup } from './types.ts'

/**
 * One group per namespace that has networks, in the order of `Caip.namespaces` (EVM, Solana, Bitcoin);
 * each keeps the host's order and names the network its namespace is on.
 * @example group(networks, (namespace) => current[namespace]) // [{ namespace: 'eip155', networks, current }]
 */
export function group(
  networks: readonly Network[],
  currentIn: (namespace: Caip.Namespace) => Caip.ChainId | undefined,
): NetworkGroup[] {
  return Caip.namespaces.flatMap((namespace) => {
    const members = networks.filter((network) => network.namespace === namespace)
    return members.length > 0 ? [{ namespace, networks: members, current: currentIn(namespace) }] : []
  })
}
