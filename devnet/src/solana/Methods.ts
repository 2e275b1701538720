/** Every JSON-RPC method the chain serves over HTTP, bound to one running chain. */
import { accountMethods } from './methods/Accounts.ts'
import { clusterMethods } from './methods/Cluster.ts'
import type { Chain } from './methods/Context.ts'
import { transactionMethods } from './methods/Transactions.ts'
import type * as Rpc from './Rpc.ts'

export type { Chain } from './methods/Context.ts'

export function bind(chain: Chain): Rpc.Methods {
  const all = { ...accountMethods, ...clusterMethods, ...transactionMethods }
  return new Map(
    Object.entries(all).map(([name, handler]) => [
      name,
      (params: readonly unknown[]) => handler(chain, params),
    ]),
  )
}
