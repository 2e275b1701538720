/**
 * An address's on-ramp purchases as docs/behaviour.md §3 history items (`GET /v1/account/{address}/history?onramp=`):
 * one `buy` per order, pending until the provider's webhook completes or fails it, with the bought asset
 * coming in.
 */
import type * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import * as Orders from './Orders.ts'

/** One page: the newest purchases; an address has few, so there is no cursor. */
const pageSize = 50

const statusOf = {
  pending: 'pending',
  completed: 'confirmed',
  failed: 'failed',
} as const satisfies Record<Contract.OnrampOrderStatus, Contract.TransactionStatus>

/** The purchases of `address` in `projectId` through `provider`, on `chainId` when given. */
export async function page(
  db: Pick<Database, 'query'>,
  filter: { projectId: string; address: string; provider: string; chainId?: string | undefined },
): Promise<Contract.HistoryAnswer> {
  const orders = await Orders.ofHolder(
    db,
    {
      projectId: filter.projectId,
      address: filter.address,
      provider: filter.provider,
      network: filter.chainId,
    },
    pageSize,
  )
  return { data: orders.map(itemOf), next: null }
}

function itemOf(order: Orders.Order): Contract.HistoryItem {
  return {
    id: order.txHash ?? order.id,
    metadata: {
      minedAt: new Date(order.updatedAt).toISOString(),
      chain: order.network,
      operationType: 'buy',
      status: statusOf[order.status],
      sentFrom: order.provider,
      sentTo: order.address,
    },
    transfers: [
      {
        fungible_info: { name: order.asset, symbol: order.asset, icon: { url: '' } },
        direction: 'in',
        quantity: { numeric: order.cryptoAmount ?? '0' },
      },
    ],
  }
}
