/**
 * A Solana transaction as `getTransaction` (encoding `json`) answers it, read into the indexer's
 * transaction and transfers. Amounts come from the balances the node recorded before and after, not from
 * instructions: that sees every lamport and token a program moved through inner calls too, and needs no
 * parser per program.
 *
 * - SOL: each account's lamport change, the fee added back to the fee payer's, paired losers to gainers
 *   (`Deltas.ts`). Rent paid into a new token account stays that account's: it is held there, not given to
 *   the wallet that owns it.
 * - SPL tokens: each owner's change per mint (all its token accounts of that mint together), paired the
 *   same way; a mint's new supply comes from '' and a burn goes to ''.
 * - The fee: a transfer of kind `fee` from the fee payer, also for a failed transaction, whose fee is the
 *   only thing it moved (meta.err: status `failed`).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { base58 } from '@scure/base'
import * as Deltas from '../Deltas.ts'
import * as JsonRpc from '../JsonRpc.ts'
import type { Transaction, TransactionKind, Transfer } from '../Source.ts'

const systemProgram = '11111111111111111111111111111111'
export const tokenPrograms = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
] as const
/** Programs whose instructions only move value: a transaction of nothing else is a plain send. */
const transferPrograms = new Set<string>([
  systemProgram,
  ...tokenPrograms,
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'ComputeBudget111111111111111111111111111111',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
])
/** SPL Token's Approve and ApproveChecked (the same numbers in Token-2022). */
const approveInstructions = new Set([4, 13])

const address = S.string(44, 32, /^[1-9A-HJ-NP-Za-km-z]+$/)
/** A u64 as the node writes it: a JSON number, or a string where `BigJson` kept a large one exact. */
const u64: S.Shape<bigint> = (value, path) => {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value)
  throw new S.ShapeError(`${path ?? ''}: expected a u64`)
}
const index = S.number(0, 255)
const tokenBalance = S.object({
  accountIndex: index,
  mint: address,
  owner: S.optional(address),
  uiTokenAmount: S.object({ amount: S.string(20, 1, /^\d+$/), decimals: S.number(0, 255) }),
})
const raw = S.object({
  slot: u64,
  blockTime: S.optional(S.nullable(S.number(0))),
  meta: S.object({
    err: S.unknown,
    fee: u64,
    preBalances: S.array(u64, 256),
    postBalances: S.array(u64, 256),
    preTokenBalances: S.optional(S.nullable(S.array(tokenBalance, 256))),
    postTokenBalances: S.optional(S.nullable(S.array(tokenBalance, 256))),
    loadedAddresses: S.optional(
      S.nullable(S.object({ writable: S.array(address, 256), readonly: S.array(address, 256) })),
    ),
  }),
  transaction: S.object({
    signatures: S.array(S.string(90, 64), 128),
    message: S.object({
      accountKeys: S.array(address, 256),
      instructions: S.array(
        S.object({ programIdIndex: index, accounts: S.array(index, 256), data: S.string(10_000) }),
        256,
      ),
    }),
  }),
})

/** A transaction read for the index, with the slot it landed in and the token accounts it touched. */
export type Read = {
  slot: number
  /** Epoch milliseconds. */
  timestamp: number
  transaction: Transaction
  /** Token accounts in its balances, with their owners: how a followed wallet's token accounts are found. */
  tokenAccounts: { address: string; owner: string }[]
  /** The decimals of the mints it moved, as the node reported them. */
  mints: { mint: string; decimals: number }[]
}

/**
 * @throws {JsonRpc.RpcUnavailable} when the answer is not a transaction
 * @example
 * const read = SolanaTransactions.read(await rpc.call('getTransaction', [signature, options]))
 */
export function read(answer: unknown): Read {
  const parsed = S.parse(raw, answer)
  if (!parsed.ok)
    throw new JsonRpc.RpcUnavailable(`the RPC answered an unreadable transaction: ${parsed.message}`)
  const { meta, transaction, slot, blockTime } = parsed.value
  const loaded = meta.loadedAddresses
  const keys = [...transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])]
  const signature = transaction.signatures[0] ?? ''
  const payer = keys[0] ?? ''
  const failed = meta.err !== null && meta.err !== undefined
  const transfers: Transfer[] = []
  const add = (kind: Transfer['kind'], asset: string, flow: Deltas.Flow) =>
    transfers.push({ position: transfers.length, kind, asset, ...flow })

  const lamports = keys.map((account, i) => ({
    account,
    amount: (meta.postBalances[i] ?? 0n) - (meta.preBalances[i] ?? 0n) + (i === 0 ? meta.fee : 0n),
  }))
  for (const flow of Deltas.pair(lamports)) add('native', '', flow)
  const balances = [...(meta.preTokenBalances ?? []), ...(meta.postTokenBalances ?? [])]
  const tokens = tokenChanges(keys, meta.preTokenBalances ?? [], meta.postTokenBalances ?? [])
  for (const [mint, changes] of tokens) for (const flow of Deltas.pair(changes)) add('fungible', mint, flow)
  if (meta.fee > 0n) add('fee', '', { from: payer, to: '', amount: meta.fee })

  const programs = transaction.message.instructions.map((instruction) => ({
    program: keys[instruction.programIdIndex] ?? '',
    data: instruction.data,
  }))
  const moved = transfers.filter((transfer) => transfer.kind !== 'fee')
  const to =
    moved.find((transfer) => transfer.from === payer && transfer.to)?.to ??
    moved.find((transfer) => transfer.to && transfer.to !== payer)?.to ??
    programs.find(({ program }) => !transferPrograms.has(program))?.program ??
    ''
  return {
    slot: Number(slot),
    timestamp: (blockTime ?? 0) * 1000,
    transaction: {
      hash: signature,
      index: positionOf(signature),
      status: failed ? 'failed' : 'confirmed',
      kind: kindOf(programs),
      from: payer,
      to,
      // A failed transaction moved nothing but its fee (its balances say so too).
      transfers: failed ? transfers.filter((transfer) => transfer.kind === 'fee') : transfers,
    },
    tokenAccounts: balances.flatMap((balance) => {
      const account = keys[balance.accountIndex]
      return account && balance.owner ? [{ address: account, owner: balance.owner }] : []
    }),
    mints: balances.map(({ mint, uiTokenAmount }) => ({ mint, decimals: uiTokenAmount.decimals })),
  }
}

type TokenBalance = S.Infer<typeof tokenBalance>

/** Each owner's change per mint; an account missing before (created) or after (closed) held nothing then. */
function tokenChanges(keys: readonly string[], pre: readonly TokenBalance[], post: readonly TokenBalance[]) {
  const byMint = new Map<string, Deltas.Change[]>()
  const push = (balance: TokenBalance, sign: bigint) => {
    const account = balance.owner ?? keys[balance.accountIndex] ?? ''
    const list = byMint.get(balance.mint) ?? []
    list.push({ account, amount: sign * BigInt(balance.uiTokenAmount.amount) })
    byMint.set(balance.mint, list)
  }
  for (const balance of pre) push(balance, -1n)
  for (const balance of post) push(balance, 1n)
  return byMint
}

function kindOf(programs: readonly { program: string; data: string }[]): TransactionKind {
  const approves = programs.some(
    ({ program, data }) =>
      (tokenPrograms as readonly string[]).includes(program) && approveInstructions.has(firstByte(data)),
  )
  if (approves) return 'approve'
  return programs.every(({ program }) => transferPrograms.has(program)) ? 'send' : 'execute'
}

function firstByte(data: string): number {
  try {
    return base58.decode(data)[0] ?? -1
  } catch {
    return -1
  }
}

/**
 * Where the transaction sits among its slot's, for paging: the node's history by address does not say
 * (getBlock would), so a number drawn from the signature stands in. It is the same on every read, so rows
 * never move, and two transactions of one slot share one with odds of about one in two billion; their
 * order within the slot (400 ms) is arbitrary.
 */
function positionOf(signature: string): number {
  let bytes: Uint8Array
  try {
    bytes = base58.decode(signature)
  } catch {
    return 0
  }
  return (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 1
}
