/**
 * Test support: the API's configuration on a running devnet, with ENS on chain A as the devnet deploys it.
 */
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as Ens from '../../../../devnet/src/ens/Ens.ts'
import { type Devnet, ens } from '../../../../devnet/src/index.ts'
import type * as Config from '../../Config.ts'
import { configOf, ether } from '../../internal/testApi.ts'

/**
 * Both devnet chains, and names on chain A asking only `internalGateways` among loopback gateways.
 * @example const config = devnetConfig(devnet, [apiUrl])
 */
export function devnetConfig(devnet: Devnet.Instance, internalGateways: string[]): Config.Config {
  return {
    ...configOf(
      devnet.chains.map((running) => ({
        id: running.caipNetworkId,
        name: running.chain.name,
        rpcUrl: running.rpcUrl,
        nativeCurrency: ether,
      })),
    ),
    names: {
      chainId: devnet.chains[0].caipNetworkId,
      universalResolver: ens.universalResolver,
      gatewayKey: Ens.devGatewayKey,
      internalGateways,
    },
  }
}
