/**
 * The Esplora subset of every configured Bitcoin-family chain, under `/v1/bip122/{reference}/esplora/…`
 * (a `:` in the path would read as a route parameter), and the balances route's view of them. Each index
 * syncs when it is read, so no timer outlives the app.
 */
import { bitcoinNetworkOf } from '@airlock/bridge-protocol/BitcoinNetworks'
import type { Network } from 'bitcoinjs-lib'
import type { Hono } from 'hono'
import type { Chain } from '../../Config.ts'
import type { Env } from '../../http/project.ts'
import type { BitcoinBalances } from '../balances/Balances.ts'
import * as Explorer from './Explorer.ts'
import * as Routes from './routes.ts'
import * as Script from './Script.ts'

/** bitcoinjs parameters of the chain's network. */
function networkOf(chain: Chain): Network {
  const known = bitcoinNetworkOf(chain.id.slice('bip122:'.length))
  if (!known)
    throw new Error(
      `Invalid Airlock API configuration: chain ${chain.id} is not a Bitcoin network Airlock knows, so its addresses cannot be told apart`,
    )
  return Script.networkFrom(known)
}

/**
 * Mounts each `bip122` chain's Esplora routes on `app`; answers the balances of those chains.
 * @throws when a configured chain is of a network Airlock cannot tell addresses of
 */
export function mount(app: Hono<Env>, chains: readonly Chain[]): BitcoinBalances {
  const explorers = new Map<string, Explorer.Explorer>()
  for (const chain of chains.filter((entry) => entry.id.startsWith('bip122:'))) {
    const explorer = Explorer.create({
      rpcUrl: chain.rpcUrl,
      network: networkOf(chain),
      chainId: chain.id,
      pollMs: 0,
    })
    explorers.set(chain.id, explorer)
    app.route(`/v1/bip122/${chain.id.slice('bip122:'.length)}/esplora`, Routes.create({ explorer }))
  }
  return async (chain, address) => {
    const explorer = explorers.get(chain.id)
    if (!explorer) throw new Error(`No Bitcoin index for ${chain.id}`)
    return explorer.balance(address)
  }
}
