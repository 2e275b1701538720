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
  /**
   * JSON-RPC (or REST, for Bitcoin) endpoint; `config.rpcUrls` overrides any other source's. Empty for a
   * chain only the API names (it keeps its RPC URLs to itself) unless `config.rpcUrls` gives one.
   */
  rpcUrl: string
  /** Block explorer; an address page is `${url}/address/${address}${query ?? ''}`. */
  explorer?: { name: string; url: string; query?: string }
  testnet: boolean
  /** The network's icon (https, http or a `data:image/…` URL); without one the modal shows its initial. */
  iconUrl?: string
}

/** A network the host declares itself (`customNetworks`): any chain, or new metadata for a known one. */
export type CustomNetwork = {
  id: Caip.ChainId
  name: string
  rpcUrl: string
  explorer?: { name: string; url: string } | undefined
  nativeCurrency: Network['nativeCurrency']
  iconUrl?: string | undefined
  testnet?: boolean | undefined
}

/** A chain the Airlock API serves, as `GET /v1/supported-chains` names it (it never sends its RPC URL). */
export type NamedChain = {
  id: string
  name: string
  nativeCurrency: Network['nativeCurrency']
  testnet?: boolean | undefined
}

/** Where the registry finds the networks it does not bundle, and the host's RPC per network. */
export type Sources = {
  /** Per-network RPC URLs that replace any other source's (registry, custom, API). */
  rpcUrls?: Readonly<Record<string, string>> | undefined
  /** The host's own networks; one with a registry network's id replaces that network. */
  custom?: readonly CustomNetwork[] | undefined
  /** The API's chains: names networks that neither the registry nor the host knows. */
  chains?: readonly NamedChain[] | undefined
}

// Wallet Standard names that the bridge's map does not carry yet.
const moreStandardChains: Readonly<Record<string, Caip.ChainId>> = {
  'bitcoin:signet': 'bip122:00000008819873e925422c1ff0f99f7c',
}

/**
 * The CAIP-2 id of a chain as a wallet names it: a Wallet Standard name (`solana:devnet`), an EIP-155 hex
 * chain id (`0x7a69`), or already CAIP-2. `undefined` when it cannot be read.
 * @example Network.toCaip('bitcoin:regtest') // 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
 */
export function toCaip(chain: string): Caip.ChainId | undefined {
  // A wallet's word: only the map's own names count, never `constructor` or `__proto__`.
  if (Object.hasOwn(Caip.standardChains, chain)) return Caip.standardChains[chain]
  if (Object.hasOwn(moreStandardChains, chain)) return moreStandardChains[chain]
  if (/^0x[0-9a-fA-F]{1,16}$/.test(chain)) return `eip155:${BigInt(chain).toString()}`
  const match = /^(eip155|solana|bip122):([-_a-zA-Z0-9]{1,32})$/.exec(chain)
  return match ? (chain as Caip.ChainId) : undefined
}

/**
 * Whether a wallet can be on the network: one that names chains of its namespace (Wallet Standard wallets
 * list them, on the wallet and on each account) must name this one; one that names none is taken at its
 * word when it follows the modal's choice (a WalletConnect session, an EIP-1193 wallet asked to switch).
 * @example Network.walletSupports({ wallet: { chains: ['solana:devnet'] }, accounts: [] }, solanaMainnet) // false
 */
export function walletSupports(
  connection: {
    wallet: { chains: readonly string[] }
    accounts: readonly { chains?: readonly string[] | undefined }[]
  },
  network: Pick<Network, 'id' | 'namespace'>,
): boolean {
  const named = [...(connection.accounts[0]?.chains ?? []), ...connection.wallet.chains]
    .map(toCaip)
    .filter((id) => id?.startsWith(`${network.namespace}:`))
  return named.length === 0 || named.includes(network.id)
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
    // None rather than an empty one: the wallet then says it needs one, in its own words.
    rpcUrls: network.rpcUrl ? [network.rpcUrl] : [],
    ...(network.explorer ? { blockExplorerUrls: [network.explorer.url] } : {}),
  }
}
