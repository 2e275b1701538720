/**
 * EIP-5792 (Wallet Call API, version 2.0.0): the shapes of a batch of calls, its status and a wallet's
 * capabilities, how a dApp's `wallet_sendCalls` is checked at the modal's edge, and the errors the EIP
 * names. A subpath of its own (`@airlock/bridge-protocol/Calls`): only the modal parses batches, so the
 * host script does not carry it.
 *
 * https://eips.ethereum.org/EIPS/eip-5792
 */
import type { ChainId } from './Caip.ts'
import { BaseError, InvalidParamsError, UnauthorizedError, UnsupportedChainError } from './Errors.ts'
import * as S from './Shape.ts'

/** The version of the Wallet Call API this module speaks. */
export const version = '2.0.0'

/** The most calls one batch may hold; more is refused with {@link BatchTooLargeError} (5740). */
export const maxCalls = 50

/** EIP-5792's codes, with texts a dApp can show. */
export const messages = {
  5700: 'The wallet does not support a capability the request requires.',
  5710: 'The wallet does not support this chain.',
  5720: 'A batch with this id was already sent.',
  5730: 'No batch with this id is known.',
  5740: 'The batch has too many calls.',
  5750: 'The upgrade to an account that runs calls atomically was rejected.',
  5760: 'This wallet cannot run the calls atomically.',
} as const

const coded = (code: keyof typeof messages) =>
  class extends BaseError {
    static readonly code = code
    constructor(message: string = messages[code]) {
      super(code, message)
    }
  }

export const UnsupportedCapabilityError = coded(5700)
export const DuplicateIdError = coded(5720)
export const UnknownBundleError = coded(5730)
export const BatchTooLargeError = coded(5740)
export const AtomicityNotSupportedError = coded(5760)

/** Batch states of `wallet_getCallsStatus`. */
export const status = {
  /** Sent, not every call is on chain yet. */
  pending: 100,
  /** Every call is on chain and succeeded. */
  confirmed: 200,
  /** Nothing reached the chain (the wallet or the person refused the first call). */
  offchainFailure: 400,
  /** A call reverted (a non-atomic batch: the calls before it stayed on chain). */
  reverted: 500,
  /** Some calls landed, the rest never will (a later call refused). */
  partial: 600,
} as const
export type StatusCode = (typeof status)[keyof typeof status]

const hex = (max: number) => S.string(max, 3, /^0x[0-9a-fA-F]+$/)
const hexData = S.string(1 << 20, 2, /^0x(?:[0-9a-fA-F]{2})*$/)
// docs/behaviour.md §5: batch-call targets are hex-prefixed, and an address is 20 bytes.
const address = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)
const hexChainId = S.string(18, 3, /^0x[1-9a-fA-F][0-9a-fA-F]{0,15}$/)
const capability = S.record(S.unknown, 64)
const capabilities = S.record(capability, 64)

const call = S.object({
  to: S.optional(address),
  data: S.optional(hexData),
  value: S.optional(hex(66)),
  capabilities: S.optional(capabilities),
})

const sendCallsShape = S.object({
  version: S.string(16, 1),
  id: S.optional(S.string(4096, 1)),
  from: S.optional(address),
  chainId: hexChainId,
  atomicRequired: S.boolean,
  calls: S.array(call, Number.MAX_SAFE_INTEGER),
  capabilities: S.optional(capabilities),
})

/** One call of a batch, as the dApp sent it (hex strings). */
export type Call = S.Infer<typeof call>
/** A dApp's `wallet_sendCalls` parameter, parsed. */
export type Batch = S.Infer<typeof sendCallsShape>
/** A wallet's capabilities per hex chain id (`wallet_getCapabilities`). */
export type Capabilities = Record<string, Record<string, unknown>>

/** A call's receipt as `wallet_getCallsStatus` reports it. */
export type Receipt = {
  logs: { address: string; data: string; topics: string[] }[]
  status: '0x1' | '0x0'
  blockHash: string
  blockNumber: string
  gasUsed: string
  transactionHash: string
}

/** The answer to `wallet_getCallsStatus`. */
export type Status = {
  version: string
  id: string
  chainId: string
  status: number
  atomic: boolean
  receipts?: Receipt[]
  capabilities?: Record<string, unknown>
}

/** What {@link parseSendCalls} needs to know of the modal. */
export type Context = {
  /** The connected accounts, any case. */
  accounts: readonly string[]
  /** Whether the dApp configured this chain. */
  configured(chainId: ChainId): boolean
  /** Whether the batch's id was used before by this page. */
  used(id: string): boolean
}

/**
 * Checks a dApp's `wallet_sendCalls` params: -32602 naming the field for a malformed one, 5740 past
 * {@link maxCalls}, 5710 for a chain the dApp did not configure, 4100 for a `from` that is not connected,
 * 5720 for an id used before. The capabilities it asks for are checked once the modal knows who runs the
 * batch: {@link checkCapabilities}.
 * @example
 * const batch = Calls.parseSendCalls(request.params, { accounts, configured, used })
 */
export function parseSendCalls(params: unknown, context: Context): Batch {
  const first = Array.isArray(params) ? params[0] : undefined
  const parsed = S.parse(sendCallsShape, first)
  if (!parsed.ok) throw new InvalidParamsError(`wallet_sendCalls: ${parsed.message}.`)
  const batch = parsed.value
  if (batch.version !== version)
    throw new InvalidParamsError(`wallet_sendCalls: version: expected ${version}.`)
  if (batch.calls.length === 0)
    throw new InvalidParamsError('wallet_sendCalls: calls: expected at least one call.')
  if (batch.calls.length > maxCalls) throw new BatchTooLargeError(`${messages[5740]} At most ${maxCalls}.`)
  if (!context.configured(chainOf(batch))) throw new UnsupportedChainError(messages[5710])
  if (batch.from && !context.accounts.some((account) => account.toLowerCase() === batch.from?.toLowerCase()))
    throw new UnauthorizedError()
  if (batch.id !== undefined && context.used(batch.id)) throw new DuplicateIdError()
  return batch
}

/**
 * 5700 for a capability the batch (or one of its calls) requires that is not `understood` by whoever runs
 * it; one the dApp marked `optional: true` may be ignored.
 */
export function checkCapabilities(batch: Batch, understood: readonly string[]): void {
  const asked = [batch.capabilities, ...batch.calls.map((entry) => entry.capabilities)]
  for (const set of asked)
    for (const [name, value] of Object.entries(set ?? {}))
      if (value.optional !== true && !understood.includes(name))
        throw new UnsupportedCapabilityError(`${messages[5700]} (${name})`)
}

/** The CAIP-2 id of a batch's hex chain id. */
export function chainOf(batch: Pick<Batch, 'chainId'>): ChainId {
  return `eip155:${BigInt(batch.chainId).toString()}` as ChainId
}

/**
 * The batch id of `wallet_getCallsStatus` / `wallet_showCallsStatus` (`[id]`); -32602 otherwise.
 * @example
 * const id = Calls.parseId('wallet_getCallsStatus', request.params)
 */
export function parseId(method: string, params: unknown): string {
  const id = Array.isArray(params) ? params[0] : undefined
  if (typeof id !== 'string' || id.length === 0 || id.length > 4096)
    throw new InvalidParamsError(`${method}: expected [id], a non-empty string.`)
  return id
}

/**
 * `wallet_getCapabilities` params: `[address, chainIds?]`; the chains as CAIP-2 ids, or undefined for
 * every chain. -32602 otherwise.
 */
export function parseCapabilitiesRequest(params: unknown): { address: string; chainIds?: ChainId[] } {
  const list = Array.isArray(params) ? params : []
  const parsed = S.parse(S.optional(S.array(hexChainId, 256)), list[1])
  if (!S.parse(address, list[0]).ok || !parsed.ok)
    throw new InvalidParamsError('wallet_getCapabilities: expected [address, chainIds?], hex-prefixed.')
  const chainIds = parsed.value?.map((id) => `eip155:${BigInt(id).toString()}` as ChainId)
  return { address: list[0] as string, ...(chainIds ? { chainIds } : {}) }
}

/**
 * A wallet's `wallet_getCapabilities` answer, kept only where it is shaped as EIP-5792 says (hex chain id →
 * capability name → object); anything else reads as no capabilities at all.
 */
export function parseCapabilities(answer: unknown): Capabilities {
  const parsed = S.parse(S.record(capabilities, 256), answer)
  if (!parsed.ok) return {}
  return Object.fromEntries(Object.entries(parsed.value).filter(([key]) => /^0x[0-9a-fA-F]{1,16}$/.test(key)))
}

/** The hex chain id EIP-5792 keys capabilities by (`0x7a69`), without leading zeros. */
export function hexChainIdOf(chainId: ChainId): string {
  return `0x${BigInt(chainId.slice('eip155:'.length)).toString(16)}`
}
