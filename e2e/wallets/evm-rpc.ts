/** JSON-RPC over fetch and transaction preparation for the EVM test wallet. */
import { type Address, type Hex, hexToBigInt, isAddress, isHex, type TransactionSerializable } from 'viem'
import { ErrorCode, invalidParams, isRecord, ProviderRpcError } from './errors.ts'

let nextRequestId = 1

export async function rpcRequest(
  rpcUrl: string,
  method: string,
  params: readonly unknown[],
): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextRequestId++, method, params })
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  if (!response.ok) {
    throw new ProviderRpcError(ErrorCode.internal, `RPC ${rpcUrl} answered HTTP ${response.status}`)
  }
  return unwrapRpcResponse(await response.json())
}

/** Node errors (reverts, bad nonces) keep their code, message and data so dApps see what they would in production. */
function unwrapRpcResponse(payload: unknown): unknown {
  if (!isRecord(payload)) throw new ProviderRpcError(ErrorCode.internal, 'RPC answered a non-object')
  const { error } = payload
  if (isRecord(error)) {
    const code = typeof error.code === 'number' ? error.code : ErrorCode.internal
    const message = typeof error.message === 'string' ? error.message : 'RPC error'
    throw new ProviderRpcError(code, message, error.data)
  }
  return payload.result
}

/** The eth_sendTransaction request fields this wallet understands (all optional, hex-encoded). */
interface TransactionRequest {
  from?: Address
  to?: Address
  value?: bigint
  data?: Hex
  gas?: bigint
  nonce?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

export function parseTransactionRequest(raw: unknown): TransactionRequest {
  if (!isRecord(raw)) throw invalidParams('eth_sendTransaction expects a transaction object')
  return {
    from: optionalAddress(raw, 'from'),
    to: optionalAddress(raw, 'to'),
    value: optionalQuantity(raw, 'value'),
    data: optionalData(raw),
    gas: optionalQuantity(raw, 'gas') ?? optionalQuantity(raw, 'gasLimit'),
    nonce: optionalQuantity(raw, 'nonce'),
    gasPrice: optionalQuantity(raw, 'gasPrice'),
    maxFeePerGas: optionalQuantity(raw, 'maxFeePerGas'),
    maxPriorityFeePerGas: optionalQuantity(raw, 'maxPriorityFeePerGas'),
  }
}

function optionalAddress(raw: Record<string, unknown>, key: string): Address | undefined {
  const value = raw[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw invalidParams(`${key} is not an address`)
  return value
}

function optionalQuantity(raw: Record<string, unknown>, key: string): bigint | undefined {
  const value = raw[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !isHex(value)) throw invalidParams(`${key} must be a hex quantity`)
  return hexToBigInt(value)
}

function optionalData(raw: Record<string, unknown>): Hex | undefined {
  // `input` is the newer name of `data`; dApps send either.
  const value = raw.data ?? raw.input
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !isHex(value)) throw invalidParams('data must be hex')
  return value
}

interface PrepareContext {
  rpcUrl: string
  chainId: number
  from: Address
}

/** Fills nonce, gas and fees from the node the way a browser wallet does before showing its popup. */
export async function prepareTransaction(
  ctx: PrepareContext,
  tx: TransactionRequest,
): Promise<TransactionSerializable> {
  const base = { chainId: ctx.chainId, to: tx.to, value: tx.value, data: tx.data }
  const [nonce, gas, fees] = await Promise.all([
    tx.nonce ?? readQuantity(ctx.rpcUrl, 'eth_getTransactionCount', [ctx.from, 'pending']),
    tx.gas ?? readQuantity(ctx.rpcUrl, 'eth_estimateGas', [estimateGasCall(ctx.from, tx)]),
    resolveFees(ctx.rpcUrl, tx),
  ])
  return { ...base, nonce: Number(nonce), gas, ...fees }
}

function estimateGasCall(from: Address, tx: TransactionRequest): Record<string, string> {
  const call: Record<string, string> = { from }
  if (tx.to) call.to = tx.to
  if (tx.value !== undefined) call.value = `0x${tx.value.toString(16)}`
  if (tx.data) call.data = tx.data
  return call
}

type FeeFields =
  | { type: 'legacy'; gasPrice: bigint }
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

async function resolveFees(rpcUrl: string, tx: TransactionRequest): Promise<FeeFields> {
  if (tx.gasPrice !== undefined) return { type: 'legacy', gasPrice: tx.gasPrice }
  const baseFee = await latestBaseFee(rpcUrl)
  if (baseFee === undefined) {
    return { type: 'legacy', gasPrice: await readQuantity(rpcUrl, 'eth_gasPrice', []) }
  }
  const maxPriorityFeePerGas = tx.maxPriorityFeePerGas ?? (await suggestedPriorityFee(rpcUrl))
  // 2x base fee is the usual headroom for a few blocks of base-fee growth.
  const maxFeePerGas = tx.maxFeePerGas ?? baseFee * 2n + maxPriorityFeePerGas
  return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
}

async function latestBaseFee(rpcUrl: string): Promise<bigint | undefined> {
  const block = await rpcRequest(rpcUrl, 'eth_getBlockByNumber', ['latest', false])
  if (!isRecord(block) || typeof block.baseFeePerGas !== 'string' || !isHex(block.baseFeePerGas))
    return undefined
  return hexToBigInt(block.baseFeePerGas)
}

const ONE_GWEI = 1_000_000_000n

async function suggestedPriorityFee(rpcUrl: string): Promise<bigint> {
  try {
    return await readQuantity(rpcUrl, 'eth_maxPriorityFeePerGas', [])
  } catch {
    // Not every node implements it; a 1 gwei tip is what most wallets fall back to.
    return ONE_GWEI
  }
}

async function readQuantity(rpcUrl: string, method: string, params: readonly unknown[]): Promise<bigint> {
  const result = await rpcRequest(rpcUrl, method, params)
  if (typeof result !== 'string' || !isHex(result)) {
    throw new ProviderRpcError(ErrorCode.internal, `${method} returned a non-hex result`)
  }
  return hexToBigInt(result)
}
