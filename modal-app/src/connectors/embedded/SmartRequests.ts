/**
 * What a dApp's request becomes when the embedded wallet's EVM account is a smart account: a transaction or
 * an EIP-5792 batch is one user operation (prepared for the preview, sent once approved), a message or
 * typed data is signed for ERC-1271 (ERC-6492 while the account is undeployed), and what a smart account
 * cannot do is refused in the product's words (docs/behaviour.md §8). Loaded with the smart account code.
 */
import { type Caip, Errors, type Request } from '@airlock/bridge-protocol'
import * as Calls from '@airlock/bridge-protocol/Calls'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Address, Hex } from 'viem'
import { approveTexts } from './approveTexts.ts'
import type { Description } from './Describe.ts'
import { typedDataOf } from './Requests.ts'
import {
  type Kind,
  type Options,
  type Smart,
  SmartAccountsUnsupportedError,
  smartAccountFor,
} from './SmartAccount.ts'
import * as UserOps from './UserOps.ts'
import type { Wallet } from './Vault.ts'

/** The wallet's smart account of `kind` on `chainId`; undefined where the chain has not the contracts. */
export async function smartAccountOn(
  wallet: Wallet,
  chainId: Caip.ChainId,
  kind: Kind,
  options: Options,
): Promise<Smart | undefined> {
  try {
    return await smartAccountFor(wallet, chainId, kind, options)
  } catch (error) {
    if (error instanceof SmartAccountsUnsupportedError) return undefined
    throw error
  }
}

/** The methods that become a user operation. */
export const operations: readonly string[] = ['eth_sendTransaction', 'wallet_sendCalls']

/** A user operation waits at most this long for its receipt before `eth_sendTransaction` gives up on it. */
const receiptTimeoutMs = 60_000

const address = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)
const quantity = S.string(66, 3, /^0x[0-9a-fA-F]+$/)
const hex = S.string(1 << 20, 2, /^0x(?:[0-9a-fA-F]{2})*$/)
const transactionShape = S.object({
  from: S.optional(address),
  to: S.optional(S.nullable(address)),
  value: S.optional(quantity),
  data: S.optional(hex),
  input: S.optional(hex),
})

/** A request's calls, as the operation runs them; a contract deployment has no target and is refused. */
export function callsOf(request: Request, own: string): UserOps.Call[] {
  const [first] = Array.isArray(request.params) ? request.params : []
  if (request.method === 'wallet_sendCalls') {
    // The core checked the batch (`Calls.parseSendCalls`) before it reached the wallet.
    const batch = first as Calls.Batch
    return batch.calls.map((call) => {
      if (!call.to) throw new Errors.InvalidParamsError('A smart account’s call needs a `to` address.')
      return {
        to: call.to as Address,
        value: BigInt(call.value ?? '0x0'),
        data: call.data as Hex | undefined,
      }
    })
  }
  const parsed = S.parse(transactionShape, first)
  if (!parsed.ok) throw new Errors.InvalidParamsError(`${Errors.messages[-32602]} ${parsed.message}`)
  const { from, to, value, data, input } = parsed.value
  if (from && from.toLowerCase() !== own.toLowerCase()) throw new Errors.UnauthorizedError()
  if (!to) throw new SmartAccountsUnsupportedError()
  return [{ to: to as Address, value: BigInt(value ?? '0x0'), data: (data ?? input) as Hex | undefined }]
}

/** The dApp's own ERC-7677 paymaster service for a batch, if it named one (http or https only). */
function paymasterUrlOf(request: Request): string | undefined {
  if (request.method !== 'wallet_sendCalls') return undefined
  const [first] = request.params as [Calls.Batch]
  const url = (first.capabilities?.paymasterService as { url?: unknown } | undefined)?.url
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : undefined
}

/**
 * The operation for the request, prepared before the visitor is asked, and what the preview adds: the
 * account, who pays the fee, the deployment or delegation it carries, and why it would fail if it would.
 * A bundler that cannot be reached, or a paymaster that refuses an account without the ETH, rejects.
 */
export async function preview(
  smart: Smart,
  request: Request,
  description: Description,
): Promise<{ description: Description; prepared?: UserOps.Prepared; failure?: unknown }> {
  const calls = callsOf(request, smart.account.address)
  const { labels, values, warnings } = approveTexts
  const rows = [...description.rows, { label: labels.from, value: smart.account.address, mono: true }]
  const notes: string[] = []
  if (!(await smart.deployed()))
    notes.push(smart.kind === 'smartAccount' ? warnings.deploys : warnings.delegates)
  try {
    const prepared = await UserOps.prepare(smart, calls, paymasterUrlOf(request))
    rows.push({ label: labels.fee, value: prepared.sponsored ? values.sponsored : values.selfPaid })
    if (prepared.refusal) notes.unshift(warnings.notSponsored(prepared.refusal))
    return {
      description: { ...description, rows, warnings: [...description.warnings, ...notes] },
      prepared,
    }
  } catch (error) {
    if (!(error instanceof UserOps.WouldRevertError)) throw error
    const failing = approveTexts.simulation.fails(error.reason)
    return {
      description: { ...description, rows, warnings: [failing, ...description.warnings, ...notes] },
      failure: error,
    }
  }
}

/**
 * Signs (and sends) the approved request. `eth_sendTransaction` answers the transaction hash that included
 * the operation, `wallet_sendCalls` the userOpHash (its batch id) as soon as the bundler took it.
 */
export async function sign(
  smart: Smart,
  request: Request,
  prepared: UserOps.Prepared | undefined,
): Promise<{ result: unknown; operation?: Hex }> {
  const own = smart.account.address
  switch (request.method) {
    case 'personal_sign': {
      const [message, signer] = request.params as [unknown, unknown]
      if (typeof message !== 'string' || !/^0x[0-9a-fA-F]*$/.test(message))
        throw new Errors.InvalidParamsError(`${Errors.messages[-32602]} params[0]: expected hex`)
      if (typeof signer !== 'string' || signer.toLowerCase() !== own.toLowerCase())
        throw new Errors.UnauthorizedError()
      return { result: await smart.account.signMessage({ message: { raw: message as Hex } }) }
    }
    case 'eth_signTypedData_v4': {
      const [signer, data] = request.params as [unknown, unknown]
      if (typeof signer !== 'string' || signer.toLowerCase() !== own.toLowerCase())
        throw new Errors.UnauthorizedError()
      return { result: await smart.account.signTypedData(typedDataOf(data)) }
    }
    case 'eth_sendTransaction':
    case 'wallet_sendCalls': {
      const ready = prepared ?? (await UserOps.prepare(smart, callsOf(request, own), paymasterUrlOf(request)))
      const hash = await UserOps.send(smart, ready)
      if (request.method === 'wallet_sendCalls') return { result: hash, operation: hash }
      const receipt = await smart.bundler.waitForUserOperationReceipt({ hash, timeout: receiptTimeoutMs })
      if (!receipt.success)
        // EIP-1474's 'transaction rejected': included, but its calls reverted and changed nothing.
        throw new Errors.BaseError(
          -32003,
          `The operation reverted on chain (transaction ${receipt.receipt.transactionHash}).`,
        )
      return { result: receipt.receipt.transactionHash, operation: hash }
    }
  }
  // eth_sign, eth_signTransaction: a smart account has no key to sign a raw hash or a transaction with.
  throw new SmartAccountsUnsupportedError()
}

/** EIP-5792's status of the batch `id`, sent as the operation `hash`. */
export async function status(smart: Smart, id: string, hash: Hex): Promise<Calls.Status> {
  const outcome = await UserOps.outcome(smart, hash)
  const base = { version: Calls.version, id, chainId: Calls.hexChainIdOf(smart.chainId), atomic: true }
  if (outcome.status === 'pending') return { ...base, status: Calls.status.pending }
  return {
    ...base,
    status: outcome.status === 'success' ? Calls.status.confirmed : Calls.status.reverted,
    receipts: [outcome.receipt],
  }
}
