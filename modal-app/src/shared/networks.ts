/**
 * The networks the modal knows, by CAIP-2 id. EVM entries come from viem's chain definitions (only docs/behaviour.md's
 * seven mainnets and two test networks are bundled), plus the local devnets; Solana and Bitcoin are listed
 * here. The host's own networks (`customNetworks`) and the API's chains complete it. This module is loaded
 * on demand, off the first chunk: viem's definitions of OP-stack chains carry their formatters.
 */
import { Caip } from '@airlock/bridge-protocol'
import type { Chain } from 'viem'
import {
  arbitrum,
  avalanche,
  base,
  baseSepolia,
  linea,
  mainnet,
  optimism,
  polygon,
  sepolia,
} from 'viem/chains'
import type { CustomNetwork, NamedChain, Network, Sources } from './Network.ts'

function fromViem(chain: Chain): Network {
  const explorer = chain.blockExplorers?.default
  return {
    id: `eip155:${chain.id}`,
    namespace: 'eip155',
    name: chain.name,
    nativeCurrency: { ...chain.nativeCurrency },
    rpcUrl: chain.rpcUrls.default.http[0] ?? '',
    ...(explorer ? { explorer: { name: explorer.name, url: explorer.url } } : {}),
    testnet: chain.testnet ?? false,
  }
}

const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
const sol = { name: 'Solana', symbol: 'SOL', decimals: 9 }
const btc = { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }
const solanaExplorer = 'https://explorer.solana.com'

/** Every network the modal can show, mainnets first, then their test networks. */
export const registry: readonly Network[] = [
  fromViem(arbitrum),
  fromViem(avalanche),
  fromViem(base),
  fromViem(linea),
  fromViem(mainnet),
  fromViem(optimism),
  fromViem(polygon),
  fromViem(sepolia),
  fromViem(baseSepolia),
  {
    id: 'eip155:31337',
    namespace: 'eip155',
    name: 'Airlock Devnet A',
    nativeCurrency: ether,
    rpcUrl: 'http://127.0.0.1:8545',
    testnet: true,
  },
  {
    id: 'eip155:31338',
    namespace: 'eip155',
    name: 'Airlock Devnet B',
    nativeCurrency: ether,
    rpcUrl: 'http://127.0.0.1:8546',
    testnet: true,
  },
  {
    id: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    namespace: 'solana',
    name: 'Solana',
    nativeCurrency: sol,
    rpcUrl: 'https://api.mainnet-beta.solana.com',
    explorer: { name: 'Solana Explorer', url: solanaExplorer },
    testnet: false,
  },
  {
    id: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    namespace: 'solana',
    name: 'Solana Devnet',
    nativeCurrency: sol,
    rpcUrl: 'https://api.devnet.solana.com',
    explorer: { name: 'Solana Explorer', url: solanaExplorer, query: '?cluster=devnet' },
    testnet: true,
  },
  {
    id: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
    namespace: 'solana',
    name: 'Solana Testnet',
    nativeCurrency: sol,
    rpcUrl: 'https://api.testnet.solana.com',
    explorer: { name: 'Solana Explorer', url: solanaExplorer, query: '?cluster=testnet' },
    testnet: true,
  },
  {
    id: 'bip122:000000000019d6689c085ae165831e93',
    namespace: 'bip122',
    name: 'Bitcoin',
    nativeCurrency: btc,
    rpcUrl: 'https://mempool.space/api',
    explorer: { name: 'Mempool', url: 'https://mempool.space' },
    testnet: false,
  },
  {
    id: 'bip122:000000000933ea01ad0ee984209779ba',
    namespace: 'bip122',
    name: 'Bitcoin Testnet',
    nativeCurrency: btc,
    rpcUrl: 'https://mempool.space/testnet/api',
    explorer: { name: 'Mempool', url: 'https://mempool.space/testnet' },
    testnet: true,
  },
  {
    id: 'bip122:00000008819873e925422c1ff0f99f7c',
    namespace: 'bip122',
    name: 'Bitcoin Signet',
    nativeCurrency: btc,
    rpcUrl: 'https://mempool.space/signet/api',
    explorer: { name: 'Mempool', url: 'https://mempool.space/signet' },
    testnet: true,
  },
  {
    id: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
    namespace: 'bip122',
    name: 'Bitcoin Regtest',
    nativeCurrency: btc,
    rpcUrl: 'http://127.0.0.1:18443',
    testnet: true,
  },
]

function fromCustom(custom: CustomNetwork): Network {
  const { explorer, iconUrl } = custom
  return {
    id: custom.id,
    namespace: Caip.parseChainId(custom.id).namespace,
    name: custom.name,
    nativeCurrency: { ...custom.nativeCurrency },
    rpcUrl: custom.rpcUrl,
    ...(explorer ? { explorer: { name: explorer.name, url: explorer.url } } : {}),
    testnet: custom.testnet ?? false,
    ...(iconUrl ? { iconUrl } : {}),
  }
}

/**
 * A chain only the API names. The API keeps its RPC URLs to itself (they may carry credentials), so the
 * network has the host's `rpcUrls` entry or none: the modal reads its balances through the API anyway.
 */
function fromChain(chain: NamedChain): Network | undefined {
  if (!Caip.isChainId(chain.id)) return undefined
  return {
    id: chain.id,
    namespace: Caip.parseChainId(chain.id).namespace,
    name: chain.name,
    nativeCurrency: { ...chain.nativeCurrency },
    rpcUrl: '',
    testnet: chain.testnet ?? false,
  }
}

/**
 * The network of that id from the first source that knows it: the host's own networks, the registry, then
 * the API's chains; with the host's RPC for it, if it gave one.
 * @example Networks.find('eip155:8453')?.name // 'Base'
 */
export function find(id: string, sources: Sources = {}): Network | undefined {
  const custom = sources.custom?.find((network) => network.id === id)
  const chain = sources.chains?.find((entry) => entry.id === id)
  const known =
    (custom && fromCustom(custom)) ??
    registry.find((network) => network.id === id) ??
    (chain && fromChain(chain))
  const { rpcUrls = {} } = sources
  const rpcUrl = Object.hasOwn(rpcUrls, id) ? rpcUrls[id] : undefined
  return known && rpcUrl ? { ...known, rpcUrl } : known
}

/** Options of {@link resolve}. */
export type ResolveOptions = Sources & {
  /** Told about each configured network no source knows. @default console.warn */
  warn?: (message: string) => void
}

/**
 * The configured networks, in the host's order, with its RPC overrides. Unknown ids are skipped with a
 * warning: the modal cannot show a network it knows no name or currency for.
 * @example
 * Networks.resolve(['eip155:31337'], { rpcUrls: { 'eip155:31337': 'http://127.0.0.1:9545' } })
 */
export function resolve(ids: readonly string[], options: ResolveOptions = {}): Network[] {
  const { warn = (message: string) => console.warn(message) } = options
  const networks: Network[] = []
  for (const id of new Set(ids)) {
    const network = find(id, options)
    if (network) networks.push(network)
    else warn(`[airlock] Network ${id} is not known to the modal and is skipped.`)
  }
  return networks
}
