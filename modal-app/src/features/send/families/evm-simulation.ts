/**
 * What an EVM send will do, before anything is signed: the node runs the pinned transaction with
 * `eth_simulateV1` (transfers traced, so ETH moves show as Transfer logs too) and the balance changes are
 * read from its Transfer logs. A node without `eth_simulateV1` runs it with `eth_call` and the changes are
 * those the draft asks for.
 */
import { type Address, decodeEventLog, getAddress, type Hex, isAddressEqual, isHex, parseAbi } from 'viem'
import { type Asset, type BalanceChange, type Chain, type Draft, RpcError, SendFailure } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import { revertFailure } from './evm-errors.ts'
import { balance, type Call, quantity, rpcCall, unreadable } from './evm-node.ts'

/** The transaction a preview pins: what submit has the wallet sign, field for field. */
export type Pinned = Call & { gas: bigint; nonce: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

export type Outcome = {
  changes: BalanceChange[]
  /** The fee: gas used × effective gas price when simulated, else the gas limit × the fee cap (a bound). */
  fee: bigint
  /** False when the node could not simulate and the changes come from the draft. */
  simulated: boolean
}

/** A simulated block's one call, as `eth_simulateV1` answers it. */
export type SimulatedCall = { status: Hex; gasUsed: Hex; returnData?: Hex; logs: Log[] }
export type Log = { address: string; topics: readonly Hex[]; data: Hex }

/** Where `traceTransfers` says ETH moved (ERC-7528's address for the native currency). */
const nativeCurrencyAddress = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const transferEvent = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])

/**
 * Runs the pinned transaction on the node and reads what it does; throws {@link SendFailure}: 'funds' when
 * the node says the balance cannot pay, 'chain' with the reason when it reverts.
 */
export async function simulate(chain: Chain, tx: Pinned, draft: Draft): Promise<Outcome> {
  const { gas, nonce, maxFeePerGas, maxPriorityFeePerGas } = tx
  const call = rpcCall(tx, { gas, nonce, maxFeePerGas, maxPriorityFeePerGas })
  let answer: unknown
  try {
    answer = await chain.rpc('eth_simulateV1', [
      { blockStateCalls: [{ calls: [call] }], traceTransfers: true, validation: true },
      // On top of the pending state, as the pinned nonce is: the block simulated is then the next one, with its
      // base fee (anvil simulates 'latest' in the latest block itself, at that block's base fee).
      'pending',
    ])
  } catch (error) {
    if (lacksMethod(error)) return replay(chain, tx, draft)
    throw error
  }
  const { block, result } = readAnswer(chain, answer)
  if (result.status !== '0x1') throw revertFailure(result.returnData)
  const baseFee =
    block.baseFeePerGas === undefined ? undefined : quantity(chain, 'eth_simulateV1', block.baseFeePerGas)
  const price = effectiveGasPrice(tx, baseFee)
  const fee = quantity(chain, 'eth_simulateV1', result.gasUsed) * price
  return { changes: changesFromLogs(draft, native(chain), result.logs, fee), fee, simulated: true }
}

/** What one gas costs in a block with `baseFee`: the tip on top of it, never past the fee cap. */
export function effectiveGasPrice(
  tx: Pick<Pinned, 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
  baseFee: bigint | undefined,
): bigint {
  if (baseFee === undefined) return tx.maxFeePerGas
  const price = baseFee + tx.maxPriorityFeePerGas
  // Not Math.min: these are bigints.
  if (price > tx.maxFeePerGas) return tx.maxFeePerGas
  return price
}

/**
 * The balance changes that Transfer logs show, the sender's first (the asset sent, then the native currency
 * with the fee in it), then every other account in the order the logs name it. Logs that are not an
 * ERC-20 Transfer (an ERC-721's has its id indexed) are not balance changes and are left out.
 */
export function changesFromLogs(
  draft: Draft,
  nativeAsset: Asset,
  logs: readonly Log[],
  fee: bigint,
): BalanceChange[] {
  const transfers = logs.flatMap((log) => {
    const transfer = decodeTransfer(log)
    return transfer ? [{ ...transfer, asset: assetOf(log.address, draft.asset, nativeAsset) }] : []
  })
  return tally(draft, nativeAsset, transfers, fee)
}

/** The balance changes the draft asks for, when no node could say what the transaction does. */
export function changesFromDraft(draft: Draft, nativeAsset: Asset, fee: bigint): BalanceChange[] {
  const transfer = { from: draft.from, to: draft.to, value: draft.amount, asset: draft.asset }
  return tally(draft, nativeAsset, [transfer], fee)
}

type Transfer = { from: string; to: string; value: bigint; asset: Asset }

function tally(
  draft: Draft,
  nativeAsset: Asset,
  transfers: readonly Transfer[],
  fee: bigint,
): BalanceChange[] {
  const changes = new Map<string, BalanceChange>()
  const add = (address: string, asset: Asset, delta: bigint) => {
    const key = `${address.toLowerCase()} ${asset.address?.toLowerCase() ?? 'native'}`
    const known = changes.get(key)
    if (known) known.delta += delta
    else changes.set(key, { address: checksummed(address), asset, delta })
  }
  // Set first so the sender's lines come in this order, whatever the logs' order.
  add(draft.from, draft.asset, 0n)
  add(draft.from, nativeAsset, -fee)
  for (const { from, to, value, asset } of transfers) {
    add(from, asset, -value)
    add(to, asset, value)
  }
  const sender = (change: BalanceChange) =>
    change.address.toLowerCase() === draft.from.toLowerCase() ? 0 : 1
  // A stable sort: the sender's lines stay in the order set above, everyone else's in log order.
  return [...changes.values()].filter((change) => change.delta !== 0n).sort((a, b) => sender(a) - sender(b))
}

function decodeTransfer(log: Log): { from: Address; to: Address; value: bigint } | undefined {
  try {
    const [signature, ...args] = log.topics
    if (!signature) return undefined
    return decodeEventLog({ abi: transferEvent, topics: [signature, ...args], data: log.data, strict: true })
      .args
  } catch {
    return undefined
  }
}

function assetOf(contract: string, sent: Asset, nativeAsset: Asset): Asset {
  if (contract.toLowerCase() === nativeCurrencyAddress) return nativeAsset
  if (sent.address && isAddressEqual(contract as Address, sent.address as Address)) return sent
  // A token the send moves besides the one sent (a fee-on-transfer token's cut): its units, named by address.
  const address = checksummed(contract)
  return { symbol: `${address.slice(0, 6)}…${address.slice(-4)}`, decimals: 0, address }
}

function native(chain: Chain): Asset {
  const { symbol, decimals } = chain.network.nativeCurrency
  return { symbol, decimals }
}

function checksummed(address: string): string {
  try {
    return getAddress(address)
  } catch {
    return address
  }
}

/**
 * The fallback for a node without `eth_simulateV1`: `eth_call` says whether it would revert, the balance
 * whether the sender can pay the value and the most the fee can be.
 */
async function replay(chain: Chain, tx: Pinned, draft: Draft): Promise<Outcome> {
  await chain.rpc('eth_call', [rpcCall(tx, { gas: tx.gas }), 'pending'])
  const fee = tx.gas * tx.maxFeePerGas
  if ((await balance(chain, tx.from)) < tx.value + fee)
    throw new SendFailure('funds', sendTexts.insufficientFunds)
  return { changes: changesFromDraft(draft, native(chain), fee), fee, simulated: false }
}

function lacksMethod(error: unknown): boolean {
  if (!(error instanceof RpcError)) return false
  return (
    error.code === -32601 ||
    /method .*(not found|not supported|does not exist|is not available)/i.test(error.message)
  )
}

function readAnswer(
  chain: Chain,
  answer: unknown,
): { block: { baseFeePerGas?: unknown }; result: SimulatedCall } {
  const block: unknown = Array.isArray(answer) ? answer[0] : undefined
  const calls: unknown = (block as { calls?: unknown } | undefined)?.calls
  const result: unknown = Array.isArray(calls) ? calls[0] : undefined
  if (!isSimulatedCall(result)) throw unreadable(chain, 'eth_simulateV1')
  return { block: block as { baseFeePerGas?: unknown }, result }
}

function isSimulatedCall(value: unknown): value is SimulatedCall {
  if (!value || typeof value !== 'object') return false
  const { status, gasUsed, returnData, logs } = value as Record<string, unknown>
  return (
    typeof status === 'string' &&
    typeof gasUsed === 'string' &&
    (returnData === undefined || (typeof returnData === 'string' && isHex(returnData))) &&
    Array.isArray(logs) &&
    logs.every(isLog)
  )
}

function isLog(value: unknown): value is Log {
  if (!value || typeof value !== 'object') return false
  const { address, topics, data } = value as Record<string, unknown>
  return (
    typeof address === 'string' &&
    typeof data === 'string' &&
    isHex(data) &&
    Array.isArray(topics) &&
    topics.every((topic) => typeof topic === 'string' && isHex(topic))
  )
}
