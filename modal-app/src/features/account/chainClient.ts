/**
 * EVM chain reads, through viem on the network's RPC (balances come from the API). Loaded on demand:
 * nothing here is in the modal's first chunk.
 */
import { type Client, createClient, http } from 'viem'
import { waitForTransactionReceipt } from 'viem/actions'
import type { Network } from '../../shared/Network.ts'

const clients = new Map<string, Client>()

function clientOf(network: Network): Client {
  const key = `${network.id} ${network.rpcUrl}`
  let client = clients.get(key)
  if (!client) {
    // Local devnets mine at once; a short polling interval sees the receipt quickly.
    client = createClient({ transport: http(network.rpcUrl, { retryCount: 3 }), pollingInterval: 500 })
    clients.set(key, client)
  }
  return client
}

/** Resolves once the transaction is mined (its receipt exists); gives up after two minutes. */
export async function waitForReceipt(network: Network, hash: string): Promise<void> {
  await waitForTransactionReceipt(clientOf(network), { hash: hash as `0x${string}`, timeout: 120_000 })
}
