/**
 * A chain's venues: the Uniswap v2 and v3 deployments its configuration's `swaps` names, or, without a
 * `swaps` block, Uniswap's own deployments on the mainnets `Canonical.ts` lists. `swaps: {}` turns swaps off
 * on such a chain.
 */
import type { Chain } from '../../Config.ts'
import type { AdapterOf, SwapAdapter } from './Adapter.ts'
import * as Canonical from './Canonical.ts'
import * as UniswapV2 from './UniswapV2.ts'
import * as UniswapV3 from './UniswapV3.ts'

/** One set of adapters per chain configuration: a venue keeps its RPC client across requests. */
const built = new WeakMap<Chain, readonly SwapAdapter[]>()

/**
 * The venues of `chain`, v2 first (its id is the default venue of a request that names none).
 * @example const venues = Venues.fromConfig(chain)
 */
export const fromConfig: AdapterOf = (chain) => {
  const known = built.get(chain)
  if (known) return known
  const swaps = chain.swaps ?? Canonical.deployments[chain.id]
  const venues: SwapAdapter[] = []
  if (swaps?.uniswapV2) venues.push(UniswapV2.create(chain, swaps.uniswapV2))
  if (swaps?.uniswapV3) venues.push(UniswapV3.create(chain, swaps.uniswapV3))
  built.set(chain, venues)
  return venues
}
