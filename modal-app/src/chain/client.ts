/**
 * EVM chain reads for the Account view, through viem on the network's RPC. Loaded on demand: nothing here
 * is in the modal's first chunk.
 */
import { type Client, createClient, http } from 'viem'
import { getBalance as viemGetBalance, waitForTransactionReceipt } from 'viem/actions'
import type { Network } from '../config/Network.ts'

const clients = new Map<string, Client>()

function clientOf(network: Network): Client {
  const key = `${network.id} ${network.rpcUrl}`
  let client = clients.get(key)
  if (!client) {
    // Local devnets mine at once; a short polling interval makes the balance follow a transaction quickly.
    client = createClient({ transport: http(network.rpcUrl, { retryCount: 3 }), pollingInterval: 500 })
    clients.set(key, client)
  }
  return client
}

/**
 * The native balance of an address, in the currency's smallest unit.
 * @example await getBalance(network, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // 10000000000000000000000n
 */
export function getBalance(network: Network, address: string): Promise<bigint> {
  return viemGetBalance(clientOf(network), { address: address as `0x${string}` })
}

/** Resolves once the transaction is mined (its receipt exists); gives up after two minutes. */
export async function waitForReceipt(network: Network, hash: string): Promise<void> {
  await waitForTransactionReceipt(clientOf(network), { hash: hash as `0x${string}`, timeout: 120_000 })
}
