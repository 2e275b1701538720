/**
 * Previews of Solana requests: messages, and wire transactions (legacy or v0) read instruction by
 * instruction, naming the programs the wallet meets every day and what their common instructions move.
 * Instruction layouts: https://github.com/solana-program (system, token, token-2022, associated-token,
 * memo, compute-budget).
 */
import type { Schema } from '@airlock/bridge-protocol'
import { toCaip } from '../../../shared/Network.ts'
import * as Wire from '../../../shared/solana/Message.ts'
import { approveTexts } from '../approveTexts.ts'
import type { Description, Row } from '../Describe.ts'
import { amount, type Context, cut, decimal, fail, limits, messageOf, textOf, whole } from './readable.ts'

const { labels, values, warnings: warn, titles, solana: words } = approveTexts

/** The preview of a Solana request, or `undefined` for a method without one. Throws `Unreadable`. */
export function describe(request: Schema.SolanaRequest, context: Context): Description | undefined {
  switch (request.method) {
    case 'solana:signMessage': {
      const { address, message } = request.params
      return {
        title: titles.signMessage,
        rows: [{ label: labels.account, value: address, mono: true }],
        message: messageOf(bytes(message)),
        warnings: [],
      }
    }
    case 'solana:signTransaction':
      return transaction(titles.signTransaction, request.params, context)
    case 'solana:signAndSendTransaction':
      return transaction(titles.sendTransaction, request.params, context)
  }
  return undefined
}

function transaction(
  title: string,
  params: { address: string; transaction: Uint8Array; chain?: string | undefined },
  context: Context,
): Description {
  const message = Wire.read(bytes(params.transaction))
  const keys = message.staticAccountKeys
  const { network } = context
  const rows: Row[] = []
  const warnings: string[] = []
  const onSolana = network?.namespace === 'solana' ? network : undefined
  if (onSolana || params.chain)
    rows.push({ label: labels.network, value: onSolana?.name ?? `${params.chain}` })
  rows.push({ label: labels.account, value: params.address, mono: true })
  rows.push({ label: labels.feePayer, value: keys[0] ?? fail('The message has no keys.'), mono: true })
  const instructions = message.compiledInstructions
  for (const instruction of instructions.slice(0, limits.instructions)) {
    const read = readInstruction(instruction, keys, context)
    rows.push(read.row)
    if (read.warning && !warnings.includes(read.warning)) warnings.push(read.warning)
  }
  if (instructions.length > limits.instructions)
    rows.push({
      label: labels.more,
      value: values.moreInstructions(instructions.length - limits.instructions),
    })
  if (message.lookupTables > 0) warnings.push(warn.lookupTables)
  if (onSolana && params.chain && toCaip(params.chain) !== onSolana.id)
    warnings.unshift(warn.otherChain(params.chain, onSolana.name))
  return { title, rows, warnings }
}

type Read = { row: Row; warning?: string }

/** What one instruction does, as a row; the program id alone for a program this preview does not know. */
function readInstruction(
  instruction: Wire.CompiledInstruction,
  keys: readonly string[],
  context: Context,
): Read {
  const program = keys[instruction.programIdIndex] ?? fail('An instruction names no program.')
  const known = programs.get(program)
  if (!known) return { row: { label: labels.program, value: program, mono: true } }
  const data = Uint8Array.from(instruction.data)
  // Accounts past the static keys come from a lookup table, which only the chain can resolve.
  const account = (index: number) => {
    const at = instruction.accountKeyIndexes[index] ?? fail('An instruction lacks an account.')
    return keys[at] ?? values.lookupTable
  }
  const { value, warning } = known.read({ data, account, context })
  return { row: { label: known.name, value }, ...(warning ? { warning } : {}) }
}

type Instruction = { data: Uint8Array; account(index: number): string; context: Context }
type Program = { name: string; read(instruction: Instruction): { value: string; warning?: string } }

function system({ data, account, context: { network, locale } }: Instruction) {
  const sol = network?.namespace === 'solana' ? network.nativeCurrency : { symbol: 'SOL', decimals: 9 }
  const tag = u32(data, 0)
  if (tag === 0) return { value: words.createAccount(amount(u64(data, 4), sol, locale), account(1)) }
  if (tag === 2) return { value: words.transfer(amount(u64(data, 4), sol, locale), account(1)) }
  return { value: words.instruction(tag) }
}

function token({ data, account, context: { locale } }: Instruction) {
  const tag = u8(data, 0)
  const units = () => words.tokenUnits(whole(u64(data, 1), locale))
  const checked = () => decimal(u64(data, 1), u8(data, 9), locale)
  switch (tag) {
    case 3:
      return { value: words.tokenTransfer(units(), account(1)) }
    case 12:
      return { value: words.tokenTransferChecked(checked(), account(1), account(2)) }
    case 4:
      return { value: words.tokenApprove(units(), account(1)), warning: warn.delegate(account(1)) }
    case 13:
      return { value: words.tokenApprove(checked(), account(2)), warning: warn.delegate(account(2)) }
    case 6:
      return { value: words.setAuthority, warning: warn.authority }
    case 9:
      return { value: words.closeAccount }
  }
  return { value: words.instruction(tag) }
}

function associatedToken({ data }: Instruction) {
  const tag = data[0] ?? 0
  // 0 creates the account, 1 creates it unless it exists.
  return { value: tag <= 1 ? words.createTokenAccount : words.instruction(tag) }
}

function memo({ data }: Instruction) {
  return { value: `“${cut(textOf(data) ?? values.bytes(data.length), limits.field)}”` }
}

function computeBudget({ data, context: { locale } }: Instruction) {
  const tag = u8(data, 0)
  if (tag === 2) return { value: words.computeLimit(whole(BigInt(u32(data, 1)), locale)) }
  if (tag === 3) return { value: words.computePrice(whole(u64(data, 1), locale)) }
  return { value: words.instruction(tag) }
}

const programs = new Map<string, Program>([
  ['11111111111111111111111111111111', { name: words.system, read: system }],
  ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', { name: words.token, read: token }],
  ['TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', { name: words.token2022, read: token }],
  ['ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', { name: words.associatedToken, read: associatedToken }],
  ['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', { name: words.memo, read: memo }],
  ['Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo', { name: words.memo, read: memo }],
  ['ComputeBudget111111111111111111111111111111', { name: words.computeBudget, read: computeBudget }],
])

function bytes(value: unknown): Uint8Array {
  return value instanceof Uint8Array ? value : fail('Expected bytes.')
}

function view(data: Uint8Array, at: number, length: number): DataView {
  if (data.length < at + length) fail('An instruction’s data is cut short.')
  return new DataView(data.buffer, data.byteOffset + at, length)
}

const u8 = (data: Uint8Array, at: number) => view(data, at, 1).getUint8(0)
const u32 = (data: Uint8Array, at: number) => view(data, at, 4).getUint32(0, true)
const u64 = (data: Uint8Array, at: number) => view(data, at, 8).getBigUint64(0, true)
