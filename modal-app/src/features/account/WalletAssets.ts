/**
 * Asset discovery (EIP-7811, docs/behaviour.md §7). A wallet that announces it among its EIP-5792
 * capabilities (`assetDiscovery: { supported: true }` for the chain, or for `0x0`, every chain) is asked
 * `wallet_getAssets` for the account on its chain. What it names that the API's balances lack joins the
 * account's tokens, without a price (the wallet says nothing of value). The wallet's answer is its word: one
 * of another shape is ignored whole, an asset of another shape is left out, and a refusal changes nothing.
 */
import { Errors } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type * as Api from '../../api/Api.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel } from '../../core/Feature.ts'
import { formatUnits } from '../../shared/Amount.ts'
import type { Network } from '../../shared/Network.ts'

const evmAddress = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)
/** A uint256 in hex (EIP-7811's `balance`). */
const quantity = S.string(66, 3, /^0x[0-9a-fA-F]{1,64}$/)
const asset = S.object({
  address: S.union(S.literal('native'), evmAddress),
  balance: quantity,
  type: S.string(32, 1),
  metadata: S.optional(
    S.nullable(
      S.object({
        name: S.optional(S.string(200)),
        symbol: S.optional(S.string(40, 1)),
        decimals: S.optional(S.check(S.number(0, 77), Number.isInteger, 'expected whole decimals')),
      }),
    ),
  ),
})
type Asset = S.Infer<typeof asset>
/** Hex chain id → assets, as EIP-7811 answers. */
const answer = S.record(S.array(S.unknown, 500), 256)

const hexChainIdOf = (network: Network) => `0x${BigInt(network.id.slice('eip155:'.length)).toString(16)}`

/** Whether the wallet's `wallet_getCapabilities` says it discovers assets on the network. */
async function discovers(kernel: Kernel, connection: Connection, address: string, network: Network) {
  const batches = kernel.batchesOf?.(connection)
  if (!batches) return false
  const capabilities = await batches.capabilities(connection, address, [network.id as `eip155:${string}`])
  const forChain = capabilities[hexChainIdOf(network)] ?? capabilities['0x0']
  const discovery = forChain?.assetDiscovery
  return (
    typeof discovery === 'object' &&
    discovery !== null &&
    (discovery as { supported?: unknown }).supported === true
  )
}

/**
 * The balances the wallet names for the account on `network`, as the API's rows (price 0), or none when it
 * does not discover assets there, refuses, or answers another shape. Never throws.
 */
export async function discover(
  kernel: Kernel,
  connection: Connection,
  address: string,
  network: Network,
): Promise<Api.TokenBalance[]> {
  if (network.namespace !== 'eip155') return []
  try {
    if (!(await discovers(kernel, connection, address, network))) return []
    const said = await kernel.walletRequest(connection, {
      namespace: 'eip155',
      method: 'wallet_getAssets',
      params: [{ account: address, chainFilter: [hexChainIdOf(network)] }],
    })
    const parsed = S.parse(answer, said)
    if (!parsed.ok) return []
    const listed = Object.entries(parsed.value).find(
      ([chain]) => /^0x[0-9a-fA-F]+$/.test(chain) && BigInt(chain) === BigInt(hexChainIdOf(network)),
    )?.[1]
    return (listed ?? []).flatMap((entry) => {
      const read = S.parse(asset, entry)
      const row = read.ok ? rowOf(read.value, network) : undefined
      return row ? [row] : []
    })
  } catch (error) {
    // Most wallets do not speak EIP-5792 and refuse to say what they can: nothing to discover, nothing to say.
    const code = Errors.codeOf(error)
    if (code !== 4200 && code !== -32601)
      console.warn('[airlock] The wallet’s assets could not be read.', error)
    return []
  }
}

/** An asset as a balance row: the native coin in the network's terms, an ERC-20 by its own metadata. */
function rowOf(entry: Asset, network: Network): Api.TokenBalance | undefined {
  const common = { chainId: network.id, value: 0, price: 0, iconUrl: '' }
  if (entry.type === 'native' && entry.address === 'native') {
    const { name, symbol, decimals } = network.nativeCurrency
    const numeric = formatUnits(BigInt(entry.balance), decimals)
    return { ...common, name, symbol, quantity: { decimals: String(decimals), numeric } }
  }
  const decimals = entry.metadata?.decimals
  const symbol = entry.metadata?.symbol
  // Without its decimals a token's balance cannot be read; NFTs and other types are not balances.
  if (entry.type !== 'erc20' || entry.address === 'native' || decimals === undefined || !symbol)
    return undefined
  if (BigInt(entry.balance) === 0n) return undefined
  const numeric = formatUnits(BigInt(entry.balance), decimals)
  return {
    ...common,
    name: entry.metadata?.name || symbol,
    symbol,
    address: entry.address,
    quantity: { decimals: String(decimals), numeric },
  }
}

/**
 * The API's rows with the wallet's added: the API's row wins where both name an asset (it has the price), so
 * the wallet adds only what the API does not list.
 */
export function merge(
  api: readonly Api.TokenBalance[],
  wallet: readonly Api.TokenBalance[],
): Api.TokenBalance[] {
  const key = (entry: Api.TokenBalance) => entry.address?.toLowerCase() ?? 'native'
  const known = new Set(api.map(key))
  return [...api, ...wallet.filter((entry) => !known.has(key(entry)))]
}
