/**
 * What an `eth_sendTransaction` would do to the wallet, before it is approved: the node runs it with
 * `eth_simulateV1` (EIP-7702's era of nodes; transfers traced, so ETH shows as ERC-7528 Transfer logs) through
 * the API's relay, and the wallet's balance changes are read from the Transfer logs. A node that cannot
 * simulate leaves the preview as it was: the simulation is added knowledge, never a gate.
 */
import { decodeErrorResult, decodeFunctionResult, type Hex, parseAbi } from 'viem'
import type { Network } from '../../../shared/Network.ts'
import { approveTexts } from '../approveTexts.ts'
import type { Row } from '../Describe.ts'
import type { Rpc } from '../Rpc.ts'
import { decimal } from './readable.ts'

/** ERC-7528's address for the native currency, where `traceTransfers` says ETH moved. */
const native = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
// keccak256('Transfer(address,address,uint256)'): ERC-20's (3 topics) and ERC-721's (4: the id indexed).
const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const erc20 = parseAbi([
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
])

type Log = { address: string; topics: readonly Hex[]; data: Hex }
type Call = { status: Hex; returnData?: Hex; logs?: Log[] }

export type Simulated = { rows: Row[]; warnings: string[] }

/**
 * @example
 * const { rows, warnings } = await simulate(rpc, 'eip155:1', me, { to, value: '0x…' }, network, 'en-US')
 */
export async function simulate(
  rpc: Rpc,
  chainId: Network['id'],
  from: string,
  tx: { to?: string | null | undefined; value?: string | undefined; data?: string | undefined },
  network: Network | undefined,
  locale?: string,
): Promise<Simulated> {
  const call = { from, ...(tx.to ? { to: tx.to } : {}), value: tx.value ?? '0x0', input: tx.data ?? '0x' }
  const answer = (await rpc(chainId as `eip155:${string}`, 'eth_simulateV1', [
    { blockStateCalls: [{ calls: [call] }], traceTransfers: true, validation: false },
    'latest',
  ])) as { calls?: Call[] }[] | undefined
  const result = answer?.[0]?.calls?.[0]
  if (!result) return { rows: [], warnings: [] }
  if (result.status !== '0x1')
    return { rows: [], warnings: [approveTexts.simulation.fails(reasonOf(result.returnData))] }
  const me = from.toLowerCase()
  const moves = new Map<string, bigint>()
  for (const log of result.logs ?? []) {
    const [topic, source, target] = log.topics
    // Only fungible moves (ERC-20's three topics, and ETH's): an NFT's amount is its id, not a quantity.
    if (topic !== transferTopic || log.topics.length !== 3 || !source || !target) continue
    const value = BigInt(log.data)
    const asset = log.address.toLowerCase()
    if (`0x${source.slice(26)}` === me) moves.set(asset, (moves.get(asset) ?? 0n) - value)
    if (`0x${target.slice(26)}` === me) moves.set(asset, (moves.get(asset) ?? 0n) + value)
  }
  const rows: Row[] = []
  for (const [asset, change] of moves) {
    if (change === 0n) continue
    const { symbol, decimals } =
      asset === native
        ? {
            symbol: network?.nativeCurrency.symbol ?? 'ETH',
            decimals: network?.nativeCurrency.decimals ?? 18,
          }
        : await tokenOf(rpc, chainId, asset)
    const sign = change < 0n ? '−' : '+'
    const size = change < 0n ? -change : change
    rows.push({
      label: approveTexts.simulation.change,
      value: `${sign}${decimal(size, decimals, locale)} ${symbol}`,
    })
  }
  return { rows, warnings: [] }
}

/** A token's symbol and decimals from the token itself; its address and no decimals when it will not say. */
async function tokenOf(rpc: Rpc, chainId: string, address: string) {
  const read = async (functionName: 'decimals' | 'symbol') =>
    decodeFunctionResult({
      abi: erc20,
      functionName,
      data: (await rpc(chainId as `eip155:${string}`, 'eth_call', [
        { to: address, data: functionName === 'decimals' ? '0x313ce567' : '0x95d89b41' },
        'latest',
      ])) as Hex,
    })
  try {
    const [decimals, symbol] = await Promise.all([read('decimals'), read('symbol')])
    return { decimals: Number(decimals), symbol: String(symbol).slice(0, 16) }
  } catch {
    return { decimals: 0, symbol: address }
  }
}

function reasonOf(data: Hex | undefined): string | undefined {
  if (!data || data === '0x') return undefined
  try {
    const error = decodeErrorResult({ data })
    return error.errorName === 'Error'
      ? String(error.args?.[0])
      : `${error.errorName}(${(error.args ?? []).join(', ')})`
  } catch {
    return undefined
  }
}
