/**
 * The EVM node reads Send makes, over `chain.rpc` only (so they run the same through the API's relay), each
 * answer checked once here and handed on typed.
 */
import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex, isHex } from 'viem'
import { type Chain, SendFailure } from '../Family.ts'

/** A call as `eth_call`, `eth_estimateGas` and `eth_simulateV1` take it. */
export type Call = { from: Address; to: Address; value: bigint; data: Hex }

/** What the next transaction pays per gas (EIP-1559). */
export type Fees = {
  /** The latest block's base fee; absent on a chain without EIP-1559. */
  baseFee?: bigint | undefined
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** The gas a plain transfer of the native currency costs. */
export const transferGas = 21_000n

/** `0x`-hex quantity, as JSON-RPC wants every number. */
export function toQuantity(value: bigint): Hex {
  return `0x${value.toString(16)}`
}

/** A JSON-RPC quantity from a node's answer; anything else means the node is not one Send can use. */
export function quantity(chain: Chain, method: string, value: unknown): bigint {
  if (typeof value === 'string' && isHex(value) && value.length > 2) return BigInt(value)
  throw unreadable(chain, method)
}

export function unreadable(chain: Chain, method: string): SendFailure {
  return new SendFailure('chain', `${chain.network.name} answered ${method} in a way Airlock cannot read`)
}

/** `call` as JSON-RPC's transaction object, with any pinned fields (gas, nonce, fees) beside it. */
export function rpcCall(call: Call, pinned: Record<string, bigint> = {}): Record<string, Hex> {
  const fields: Record<string, Hex> = { from: call.from, to: call.to, value: toQuantity(call.value) }
  if (call.data !== '0x') fields.data = call.data
  for (const [key, value] of Object.entries(pinned)) fields[key] = toQuantity(value)
  return fields
}

async function read(chain: Chain, method: string, params: unknown[]): Promise<bigint> {
  return quantity(chain, method, await chain.rpc(method, params))
}

export function balance(chain: Chain, address: Address): Promise<bigint> {
  return read(chain, 'eth_getBalance', [address, 'latest'])
}

/** The next nonce of the account, counting its transactions still in the node's pool. */
export function nextNonce(chain: Chain, address: Address, tag: 'pending' | 'latest'): Promise<bigint> {
  return read(chain, 'eth_getTransactionCount', [address, tag])
}

export function estimateGas(chain: Chain, call: Call): Promise<bigint> {
  return read(chain, 'eth_estimateGas', [rpcCall(call)])
}

/** The token balance of `owner`, by the token's own `balanceOf`. */
export async function tokenBalance(chain: Chain, token: Address, owner: Address): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  const answer = await chain.rpc('eth_call', [{ to: token, data }, 'latest'])
  if (typeof answer !== 'string' || !isHex(answer) || answer.length !== 66)
    throw unreadable(chain, 'eth_call')
  return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: answer })
}

/**
 * The fees to offer: twice the latest base fee (room for a few blocks of growth) plus the node's suggested
 * tip; on a node without `eth_maxPriorityFeePerGas` the tip is what `eth_gasPrice` adds to the base fee,
 * and without a base fee (no EIP-1559) both caps are `eth_gasPrice`.
 */
export async function fees(chain: Chain): Promise<Fees> {
  const block = await chain.rpc('eth_getBlockByNumber', ['latest', false])
  if (!block || typeof block !== 'object') throw unreadable(chain, 'eth_getBlockByNumber')
  const raw = (block as { baseFeePerGas?: unknown }).baseFeePerGas
  if (raw === undefined || raw === null) {
    const gasPrice = await read(chain, 'eth_gasPrice', [])
    return { maxFeePerGas: gasPrice, maxPriorityFeePerGas: gasPrice }
  }
  const baseFee = quantity(chain, 'eth_getBlockByNumber', raw)
  const maxPriorityFeePerGas = await suggestedTip(chain, baseFee)
  return { baseFee, maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas }
}

async function suggestedTip(chain: Chain, baseFee: bigint): Promise<bigint> {
  try {
    return await read(chain, 'eth_maxPriorityFeePerGas', [])
  } catch (error) {
    if (error instanceof SendFailure && error.kind === 'unavailable') throw error
    const gasPrice = await read(chain, 'eth_gasPrice', [])
    return gasPrice > baseFee ? gasPrice - baseFee : 0n
  }
}

/** A mined transaction's outcome, or undefined while it is not in a block. */
export async function receiptStatus(chain: Chain, hash: Hex): Promise<'confirmed' | 'failed' | undefined> {
  const receipt = await chain.rpc('eth_getTransactionReceipt', [hash])
  if (receipt === null || receipt === undefined) return undefined
  const status = (receipt as { status?: unknown }).status
  if (status === '0x1') return 'confirmed'
  if (status === '0x0') return 'failed'
  throw unreadable(chain, 'eth_getTransactionReceipt')
}
