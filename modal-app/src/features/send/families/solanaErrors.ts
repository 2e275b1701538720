/**
 * What a failed Solana simulation or broadcast means for the visitor. The node reports a transaction error
 * as serde JSON (`"InsufficientFundsForFee"`, `{"InstructionError":[0,{"Custom":1}]}`); running out of SOL or
 * of the token is `funds`, an account left below its rent minimum and everything else is `chain`, with the
 * node's reason in the text.
 */
import { formatUnits } from 'viem'
import { type Chain, RpcError, SendFailure } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import * as Rpc from './solanaRpc.ts'
import { associatedTokenProgram, isTokenProgram } from './solanaSpl.ts'
import { solanaTexts } from './solanaTexts.ts'

export const texts = solanaTexts.errors

const systemProgram = '11111111111111111111111111111111'
// SystemError::ResultWithNegativeLamports and TokenError::InsufficientFunds share the code 1; the
// associated token program reports the system program's when the payer cannot fund the new account's rent.
const insufficientCode = 1
const fundsErrors = new Set(['InsufficientFundsForFee', 'AccountNotFound'])

type InstructionError = [number, unknown]

function instructionError(err: unknown): InstructionError | undefined {
  if (!isRecord(err) || !Array.isArray(err.InstructionError)) return undefined
  const [index, inner] = err.InstructionError as unknown[]
  return typeof index === 'number' ? [index, inner] : undefined
}

/** Whether the error says the sender lacks SOL or the token; `programs` are the instructions' programs. */
export function isFundsError(err: unknown, programs: readonly string[]): boolean {
  if (typeof err === 'string') return fundsErrors.has(err)
  const instruction = instructionError(err)
  if (!instruction) return false
  const [index, inner] = instruction
  if (inner === 'InsufficientFunds') return true
  const program = programs[index] ?? ''
  const known = program === systemProgram || program === associatedTokenProgram.toBase58()
  return isRecord(inner) && inner.Custom === insufficientCode && (known || isTokenProgram(program))
}

/** The node's words for a transaction error, with the program's own log line when it wrote one. */
export function describe(err: unknown, logs: readonly string[]): string {
  const instruction = instructionError(err)
  const base = instruction
    ? `instruction ${instruction[0]}: ${describeInner(instruction[1])}`
    : typeof err === 'string'
      ? err
      : JSON.stringify(err)
  const said = logs.findLast((line) => /\b(Error|failed)\b/.test(line))
  return said ? `${base} (${said})` : base
}

function describeInner(inner: unknown): string {
  if (typeof inner === 'string') return inner
  if (isRecord(inner) && typeof inner.Custom === 'number')
    return `custom program error 0x${inner.Custom.toString(16)}`
  return JSON.stringify(inner)
}

/** The failure a simulation's error means; the node's reason is in the text when it is not a known one. */
export async function simulationFailure(
  chain: Chain,
  err: unknown,
  logs: readonly string[],
  programs: readonly string[],
): Promise<SendFailure> {
  return (
    (await knownFailure(chain, err, programs)) ??
    new SendFailure('chain', texts.simulationFailed(describe(err, logs)))
  )
}

/** Funds, an expired blockhash, an account below its rent minimum (read from the node for the text). */
async function knownFailure(
  chain: Chain,
  err: unknown,
  programs: readonly string[],
): Promise<SendFailure | undefined> {
  if (isFundsError(err, programs)) return new SendFailure('funds', sendTexts.insufficientFunds)
  if (err === 'BlockhashNotFound') return new SendFailure('chain', texts.expired)
  const rent = isRecord(err) && isRecord(err.InsufficientFundsForRent) ? err.InsufficientFundsForRent : {}
  if (typeof rent.account_index !== 'number') return undefined
  const { symbol, decimals } = chain.network.nativeCurrency
  const minimum = formatUnits(await Rpc.minimumBalance(chain, 0), decimals)
  // The fee payer, the sender, is always the transaction's first account.
  const text =
    rent.account_index === 0 ? texts.senderRent(minimum, symbol) : texts.receiverRent(minimum, symbol)
  return new SendFailure('chain', text)
}

/** Whether a broadcast's refusal says the node has this very transaction already: it was sent. */
export function isAlreadyProcessed(error: unknown): boolean {
  if (!(error instanceof RpcError)) return false
  const data = error.data
  return (
    (isRecord(data) && data.err === 'AlreadyProcessed') || /already (been )?processed/i.test(error.message)
  )
}

/** A broadcast's refusal as the visitor's failure; `unavailable` and other failures pass unchanged. */
export async function broadcastFailure(
  chain: Chain,
  error: unknown,
  programs: readonly string[],
): Promise<unknown> {
  if (!(error instanceof RpcError)) return error
  // A preflight refusal (-32002) carries the simulation's error; its message already names it.
  const err = isRecord(error.data) ? error.data.err : undefined
  const known = err === undefined || err === null ? undefined : await knownFailure(chain, err, programs)
  return known ?? new SendFailure('chain', Rpc.texts.refused(error.message), { cause: error })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
