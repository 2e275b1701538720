/**
 * The shape of a network as the modal uses it, and how wallets name chains. Kept apart from the
 * registry (`networks.ts`, which pulls in viem's chain definitions) so the first chunk stays small.
 */
import { Caip } from '@airlock/bridge-protocol'

export type Network = {
  /** CAIP-2 id, e.g. `eip155:1`. */
  id: Caip.ChainId
  namespace: Caip.Namespace
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  /** JSON-RPC (or REST, for Bitcoin) endpoint; `config.rpcUrls` overrides the registry's default. */
  rpcUrl: string
  /** Block explorer; an address page is `${url}/address/${address}${query ?? ''}`. */
  explorer?: { name: string; url: string; query?: string }
  testnet: boolean
}

/**
 * The CAIP-2 id of a chain as a wallet names it: a Wallet Standard name (`solana:devnet`), an EIP-155 hex
 * chain id (`0x7a69`), or already CAIP-2. `undefined` when it cannot be read.
 * @example Network.toCaip('bitcoin:regtest') // 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
 */
export function toCaip(chain: string): Caip.ChainId | undefined {
  // A wallet's word: only the map's own names count, never `constructor` or `__proto__`.
  if (Object.hasOwn(Caip.standardChains, chain)) return Caip.standardChains[chain]
  if (/^0x[0-9a-fA-F]{1,16}$/.test(chain)) return `eip155:${BigInt(chain).toString()}`
  const match = /^(eip155|solana|bip122):([-_a-zA-Z0-9]{1,32})$/.exec(chain)
  return match ? (chain as Caip.ChainId) : undefined
}

/** The address page of an account on the network's explorer, when it has one. */
export function addressUrl(network: Network, address: string): string | undefined {
  const { explorer } = network
  if (!explorer) return undefined
  return `${explorer.url}/address/${encodeURIComponent(address)}${explorer.query ?? ''}`
}

/** The parameters of `wallet_addEthereumChain` (EIP-3085) for an EVM network. */
export function addChainParameters(network: Network): {
  chainId: `0x${string}`
  chainName: string
  nativeCurrency: Network['nativeCurrency']
  rpcUrls: string[]
  blockExplorerUrls?: string[]
} {
  return {
    chainId: Caip.toHexChainId(network.id),
    chainName: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: [network.rpcUrl],
    ...(network.explorer ? { blockExplorerUrls: [network.explorer.url] } : {}),
  }
}
