/**
 * What an EVM node's refusal means for the visitor: docs/behaviour.md §8's list of node errors read from the node's
 * message, a revert's reason read from its data, and one function that turns anything a node or a wallet
 * throws into the {@link SendFailure} the flow shows.
 */
import { Errors } from '@airlock/bridge-protocol'
import { decodeErrorResult, type Hex, isHex, parseAbi } from 'viem'
import { RpcError, SendFailure } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import { evmTexts } from './evmTexts.ts'

/** docs/behaviour.md §8: the node errors a send can meet. */
export type NodeErrorKind =
  | 'execution-reverted'
  | 'fee-cap-too-high'
  | 'fee-cap-too-low'
  | 'nonce-too-high'
  | 'nonce-too-low'
  | 'nonce-max'
  | 'insufficient-funds'
  | 'intrinsic-gas-too-high'
  | 'intrinsic-gas-too-low'
  | 'unsupported-transaction-type'
  | 'tip-above-fee-cap'
  | 'unknown'

/**
 * How nodes word each error (geth, reth, anvil, erigon, nethermind say them alike; the patterns are viem's),
 * in the order they are tried: a revert's own reason may contain the words of another.
 */
// Read when this chunk loads, which is after the visitor's language is in.
const words = evmTexts.nodeErrors
const wouldFail = words.wouldFail

const nodeErrors: readonly { kind: NodeErrorKind; pattern: RegExp; text: string }[] = [
  {
    kind: 'execution-reverted',
    pattern: /execution reverted|gas required exceeds allowance/i,
    text: wouldFail,
  },
  {
    kind: 'fee-cap-too-high',
    pattern: /max fee per gas higher than 2\^256-1|fee cap higher than 2\^256-1/i,
    text: words.feeCapTooHigh,
  },
  {
    kind: 'fee-cap-too-low',
    pattern:
      /max fee per gas less than block base fee|fee cap less than block base fee|transaction is outdated/i,
    text: words.feeCapTooLow,
  },
  {
    kind: 'nonce-too-high',
    pattern: /nonce too high/i,
    text: words.nonceTooHigh,
  },
  {
    kind: 'nonce-too-low',
    pattern: /nonce too low|transaction already imported|already known/i,
    text: words.nonceTooLow,
  },
  {
    kind: 'nonce-max',
    pattern: /nonce has max value/i,
    text: words.nonceMax,
  },
  {
    kind: 'insufficient-funds',
    pattern: /insufficient funds|exceeds transaction sender account balance|outoffunds/i,
    text: sendTexts.insufficientFunds,
  },
  {
    kind: 'intrinsic-gas-too-high',
    pattern: /intrinsic gas too high|gas limit reached/i,
    text: words.gasTooHigh,
  },
  {
    kind: 'intrinsic-gas-too-low',
    pattern: /intrinsic gas too low/i,
    text: words.gasTooLow,
  },
  {
    kind: 'unsupported-transaction-type',
    pattern: /transaction type not (valid|supported)|unsupported transaction type/i,
    text: words.unsupportedType,
  },
  {
    kind: 'tip-above-fee-cap',
    pattern: /max priority fee per gas higher than max fee per gas|tip higher than fee cap/i,
    text: words.tipAboveCap,
  },
]

const unknownText = words.unknown

// Node messages can carry whole revert payloads; the visitor needs their start, not kilobytes of hex.
const reasonLimit = 200

/**
 * What a node's error message means, and the text the visitor reads: the meaning, then the node's own words.
 * Insufficient funds reads exactly `sendTexts.insufficientFunds`.
 * @example nodeError('nonce too low') // { kind: 'nonce-too-low', text: 'A transaction with this nonce … (nonce too low)' }
 */
export function nodeError(message: string): { kind: NodeErrorKind; text: string } {
  const found = nodeErrors.find(({ pattern }) => pattern.test(message))
  if (found?.kind === 'insufficient-funds') return { kind: found.kind, text: found.text }
  return { kind: found?.kind ?? 'unknown', text: `${found?.text ?? unknownText} (${clip(message)})` }
}

/** Solidity's own errors and those ERC-20 contracts revert with: the devnet's TestToken, OpenZeppelin's (ERC-6093). */
const tokenErrors = parseAbi([
  'error Error(string reason)',
  'error Panic(uint256 code)',
  'error InsufficientBalance(address from, uint256 balance, uint256 needed)',
  'error InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error InvalidReceiver(address to)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
])

const balanceErrors = new Set(['InsufficientBalance', 'ERC20InsufficientBalance'])
// OpenZeppelin before 5.0 reverted with strings.
const balanceReasons = /exceeds balance|insufficient balance/i

/**
 * A revert's reason as the visitor reads it, from the revert data: the `Error(string)` text, `panic 0x11`,
 * `InvalidReceiver(0x0…)` for a known custom error, else its selector.
 * @example revertReason('0x08c379a0…') // 'nope'
 */
export function revertReason(data: Hex | undefined): { reason: string; lacksFunds: boolean } {
  if (!data || data === '0x') return { reason: 'no reason given', lacksFunds: false }
  try {
    const { errorName, args } = decodeErrorResult({ abi: tokenErrors, data })
    if (errorName === 'Error') {
      const reason = String(args[0])
      return { reason: clip(reason), lacksFunds: balanceReasons.test(reason) }
    }
    if (errorName === 'Panic') return { reason: `panic 0x${BigInt(args[0]).toString(16)}`, lacksFunds: false }
    return {
      reason: clip(`${errorName}(${args.map(String).join(', ')})`),
      lacksFunds: balanceErrors.has(errorName),
    }
  } catch {
    return { reason: `custom error ${data.slice(0, 10)}`, lacksFunds: false }
  }
}

/**
 * The failure a revert means: 'funds' when the token says the balance is too low, else 'chain' with the reason.
 */
export function revertFailure(data: Hex | undefined): SendFailure {
  const { reason, lacksFunds } = revertReason(data)
  if (lacksFunds) return new SendFailure('funds', sendTexts.insufficientFunds)
  return new SendFailure('chain', `${wouldFail}: ${reason}`)
}

/**
 * Anything a node or a wallet threw, as the {@link SendFailure} the visitor reads. A wallet's refusal (4001,
 * also when wrapped as another error's cause) is 'declined'; a node's refusal is read through
 * {@link nodeError}; a revert through its data.
 */
export function failureOf(error: unknown): SendFailure {
  if (error instanceof SendFailure) return error
  if (declined(error)) return new SendFailure('declined', sendTexts.declined, { cause: error })
  const message = Errors.messageOf(error, '')
  const { kind, text } = nodeError(message)
  if (kind === 'execution-reverted') {
    const data = revertData(error)
    // Without data, the node's message carries the reason (`execution reverted: nope`), and `text` quotes it.
    if (data) return withCause(revertFailure(data), error)
  }
  if (kind === 'insufficient-funds') return new SendFailure('funds', text, { cause: error })
  if (kind === 'unknown' && !message) return new SendFailure('chain', unknownText, { cause: error })
  return new SendFailure('chain', text, { cause: error })
}

function declined(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if (Errors.codeOf(e) === Errors.UserRejectedRequestError.code) return true
  return false
}

function revertData(error: unknown): Hex | undefined {
  const data = error instanceof RpcError ? error.data : (error as { data?: unknown } | null)?.data
  if (typeof data === 'string' && isHex(data)) return data
  // Some nodes and wallets nest it one level deeper: `{ data: { data: '0x…' } }`.
  const nested = (data as { data?: unknown } | null | undefined)?.data
  return typeof nested === 'string' && isHex(nested) ? nested : undefined
}

function withCause(failure: SendFailure, cause: unknown): SendFailure {
  return new SendFailure(failure.kind, failure.message, { cause })
}

function clip(text: string): string {
  return text.length > reasonLimit ? `${text.slice(0, reasonLimit)}…` : text
}
