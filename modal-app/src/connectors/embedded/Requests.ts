/**
 * What the embedded wallet does with a dApp's request once the visitor approved it: signatures are made with
 * the secret the vault lends for that one call, and transactions are completed (nonce, gas, fees) from the
 * chain (`Rpc.ts`) before they are signed and sent.
 */
import { Caip, Errors, type Request, type Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Hex, TransactionSerializable, TypedDataDefinition } from 'viem'
import * as base58 from '../../shared/encoding/base58.ts'
import * as base64 from '../../shared/encoding/base64.ts'
import * as Message from '../../shared/solana/Message.ts'
import type { Rpc } from './Rpc.ts'
import * as Signing from './Signing.ts'
import type { Wallet } from './Vault.ts'

const hex = S.string(1_000_000, 0, /^0x[0-9a-fA-F]*$/)
const quantity = S.string(66, 3, /^0x[0-9a-fA-F]+$/)
const evmAddress = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)

/** A params array whose first entries have these shapes (wallets ignore what follows, as MetaMask does). */
const leading =
  <const T extends readonly unknown[]>(...shapes: { [K in keyof T]: S.Shape<T[K]> }): S.Shape<T> =>
  (value, path = 'params') => {
    if (!Array.isArray(value) || value.length < shapes.length || value.length > 8)
      throw new S.ShapeError(`${path}: expected ${shapes.length} parameters`)
    return shapes.map((shape, i) => shape(value[i], `${path}[${i}]`)) as unknown as T
  }

const personalSign = leading(hex, evmAddress)
const typedData = leading(evmAddress, S.unknown)
const transactionShape = S.object({
  from: S.optional(evmAddress),
  to: S.optional(S.nullable(evmAddress)),
  value: S.optional(quantity),
  data: S.optional(hex),
  input: S.optional(hex),
  gas: S.optional(quantity),
  gasPrice: S.optional(quantity),
  maxFeePerGas: S.optional(quantity),
  maxPriorityFeePerGas: S.optional(quantity),
  nonce: S.optional(quantity),
  chainId: S.optional(quantity),
})

function parse<T>(shape: S.Shape<T>, value: unknown): T {
  const parsed = S.parse(shape, value)
  if (!parsed.ok) throw new Errors.InvalidParamsError(`${Errors.messages[-32602]} ${parsed.message}`)
  return parsed.value
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/**
 * Signs (and, for a transaction, sends) an approved request for `wallet` on `chainId`. A request for
 * another account than the wallet's is refused with 4100 before anything is signed.
 */
export async function sign(
  wallet: Wallet,
  request: Request,
  chainId: Caip.ChainId,
  rpc: Rpc,
): Promise<unknown> {
  const notMine = () => new Errors.UnauthorizedError()
  if (request.namespace === 'solana') return signSolana(wallet, request, chainId, rpc)
  if (request.namespace !== 'eip155') throw new Errors.UnsupportedMethodError()
  const own = wallet.addresses.eip155
  switch (request.method) {
    case 'personal_sign': {
      const [message, address] = parse(personalSign, request.params)
      if (!sameAddress(address, own)) throw notMine()
      return wallet.withSecret((secret) => Signing.signEvmMessage(secret, { raw: message as Hex }))
    }
    case 'eth_signTypedData_v4': {
      const [address, data] = parse(typedData, request.params)
      if (!sameAddress(address, own)) throw notMine()
      const definition = typedDataOf(data)
      const domainChain = (definition.domain as { chainId?: unknown } | undefined)?.chainId
      // EIP-712: a signature for another chain's domain could be replayed there; the wallet signs only its own.
      if (
        domainChain !== undefined &&
        chainIdOf(domainChain) !== BigInt(Caip.parseChainId(chainId).reference)
      )
        throw new Errors.InvalidParamsError('The typed data names another chain than the wallet’s.')
      return wallet.withSecret((secret) => Signing.signEvmTypedData(secret, definition))
    }
    case 'eth_sendTransaction': {
      const [fields] = parse(leading(transactionShape), request.params)
      if (fields.from && !sameAddress(fields.from, own)) throw notMine()
      const transaction = await complete(fields, own, chainId, rpc)
      const signed = await wallet.withSecret((secret) => Signing.signEvmTransaction(secret, transaction))
      return rpc(chainId, 'eth_sendRawTransaction', [signed])
    }
  }
  throw new Errors.UnsupportedMethodError()
}

async function signSolana(
  wallet: Wallet,
  request: Schema.SolanaRequest,
  chainId: Caip.ChainId,
  rpc: Rpc,
): Promise<unknown> {
  const notMine = () => new Errors.UnauthorizedError()
  switch (request.method) {
    case 'solana:signMessage': {
      if (request.params.address !== wallet.addresses.solana) throw notMine()
      const { message } = request.params
      // The core refused it already; a signature is the last place to make sure.
      Message.refuseTransaction(message)
      const signature = await wallet.withSecret((secret) => Signing.signSolanaMessage(secret, message))
      return { signedMessage: message, signature }
    }
    case 'solana:signTransaction': {
      if (request.params.address !== wallet.addresses.solana) throw notMine()
      const { transaction } = request.params
      return { signedTransaction: await solanaSigned(wallet, transaction) }
    }
    case 'solana:signAndSendTransaction': {
      if (request.params.address !== wallet.addresses.solana) throw notMine()
      const signed = await solanaSigned(wallet, request.params.transaction)
      const options = request.params.options ?? {}
      const sent = await rpc(chainId, 'sendTransaction', [
        base64.encode(signed),
        {
          ...pick(options, ['skipPreflight', 'maxRetries', 'minContextSlot']),
          encoding: 'base64',
          preflightCommitment:
            typeof options.preflightCommitment === 'string' ? options.preflightCommitment : 'confirmed',
        },
      ])
      if (typeof sent !== 'string') throw new Errors.InternalError('The node answered no signature.')
      return { signature: base58.decode(sent) }
    }
  }
  throw new Errors.UnsupportedMethodError()
}

async function solanaSigned(wallet: Wallet, transaction: Uint8Array): Promise<Uint8Array> {
  try {
    return await wallet.withSecret((secret) => Signing.signSolanaTransaction(secret, transaction))
  } catch (error) {
    if (error instanceof Signing.SolanaTransactionError) throw new Errors.InvalidParamsError(error.message)
    throw error
  }
}

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]))
}

/** A domain's chainId as EIP-712 dApps write it (a number, decimal or 0x text); undefined for anything else. */
function chainIdOf(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined
  return typeof value === 'string' && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value)
    ? BigInt(value)
    : undefined
}

/** `eth_signTypedData_v4`'s second parameter: the JSON text of EIP-712 typed data (some dApps pass the object). */
export function typedDataOf(data: unknown): TypedDataDefinition {
  let value = data
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data)
    } catch {
      throw new Errors.InvalidParamsError('The typed data is not JSON.')
    }
  }
  const parsed = S.parse(
    S.object({
      types: S.record(S.unknown),
      primaryType: S.string(256, 1),
      domain: S.optional(S.record(S.unknown)),
      message: S.record(S.unknown),
    }),
    value,
  )
  if (!parsed.ok) throw new Errors.InvalidParamsError(`The typed data is malformed: ${parsed.message}`)
  const { EIP712Domain: _, ...types } = parsed.value.types
  return { ...parsed.value, types } as unknown as TypedDataDefinition
}

/**
 * The transaction as it will be signed: what the dApp gave, and from the chain what it left out (nonce,
 * gas with a 20% margin, EIP-1559 fees of twice the base fee plus the tip). A chain id other than the
 * wallet's is refused (EIP-1193's 4901), so a dApp cannot have the visitor sign for a chain they do not see.
 */
async function complete(
  fields: S.Infer<typeof transactionShape>,
  from: string,
  chainId: Caip.ChainId,
  rpc: Rpc,
): Promise<TransactionSerializable> {
  const chain = Number(Caip.parseChainId(chainId).reference)
  if (fields.chainId !== undefined && BigInt(fields.chainId) !== BigInt(chain))
    throw new Errors.ChainDisconnectedError()
  const data = (fields.data ?? fields.input) as Hex | undefined
  const call = { from, to: fields.to ?? undefined, value: fields.value, data }
  const read = (method: string, params: unknown) => rpc(chainId, method, params) as Promise<string>
  const [nonce, gas] = await Promise.all([
    fields.nonce ?? read('eth_getTransactionCount', [from, 'pending']),
    fields.gas ??
      read('eth_estimateGas', [call]).then(
        (estimate) => `0x${((BigInt(estimate) * 12n) / 10n).toString(16)}`,
      ),
  ])
  const base = {
    chainId: chain,
    nonce: Number(BigInt(nonce)),
    gas: BigInt(gas),
    ...(fields.to ? { to: fields.to as Hex } : {}),
    ...(fields.value ? { value: BigInt(fields.value) } : {}),
    ...(data && data !== '0x' ? { data } : {}),
  }
  if (fields.gasPrice) return { ...base, type: 'legacy', gasPrice: BigInt(fields.gasPrice) }
  const block = (await rpc(chainId, 'eth_getBlockByNumber', ['latest', false])) as {
    baseFeePerGas?: string
  } | null
  if (!block?.baseFeePerGas)
    return { ...base, type: 'legacy', gasPrice: BigInt(await read('eth_gasPrice', [])) }
  const tip = BigInt(
    fields.maxPriorityFeePerGas ?? (await read('eth_maxPriorityFeePerGas', []).catch(() => '0x3b9aca00')),
  )
  const maxFeePerGas = fields.maxFeePerGas
    ? BigInt(fields.maxFeePerGas)
    : BigInt(block.baseFeePerGas) * 2n + tip
  if (tip > maxFeePerGas) throw new Errors.InvalidParamsError('maxPriorityFeePerGas is above maxFeePerGas.')
  return { ...base, type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas: tip }
}
