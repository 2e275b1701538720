/**
 * One read of followed Solana addresses into the store: their new signatures (getSignaturesForAddress
 * `until` each address's cursor, at `confirmed`), the transactions not stored yet (getTransaction), then
 * one database transaction that writes them, lists the token accounts they show the followed wallets own,
 * and moves the cursors. RPC calls go out in JSON-RPC batches, never while a database transaction is open.
 */
import type { Database } from '../../../Database.ts'
import type * as JsonRpc from '../JsonRpc.ts'
import { RpcFailure, RpcUnavailable } from '../JsonRpc.ts'
import * as Store from '../Store.ts'
import * as SolanaTransactions from './solanaTransactions.ts'
import * as Watchlist from './solanaWatchlist.ts'

export type SyncOptions = {
  rpc: JsonRpc.Client
  db: Pick<Database, 'query' | 'transaction'>
  chainId: string
  /** Told when history is skipped (more new signatures than `maxPages` read) or a transaction is unreadable. */
  warn: (message: string) => void
}

export type Synced = {
  /** Transactions written. */
  written: number
  /** Whether more is waiting: token accounts found to read next. */
  behind: boolean
}

/** A wallet's first read: its newest transactions, no further back (the route waits for it). */
const firstRead = 100
const pageSize = 1000
/** An address with more new signatures than this many pages skips the older ones (a warning says so). */
const maxPages = 10
const callsPerBatch = 100
const confirmed = { commitment: 'confirmed' } as const
/** The accounts' addresses are all that is read: no data (base58, the default, fails past 128 bytes). */
const accountsOnly = { ...confirmed, encoding: 'base64', dataSlice: { offset: 0, length: 0 } } as const

/**
 * @example
 * await SolanaSync.sync({ rpc, db, chainId, warn }, await Watchlist.followed(db, chainId, since))
 */
export async function sync(options: SyncOptions, watched: readonly Watchlist.Watched[]): Promise<Synced> {
  const { db, chainId } = options
  const fresh = watched.filter((entry) => entry.newest === null && entry.address === entry.owner)
  const listed = new Set(watched.map((entry) => entry.address))
  const found = (
    await tokenAccountsOf(
      options.rpc,
      fresh.map((entry) => entry.address),
    )
  ).filter((entry) => !listed.has(entry.address))
  const all = [...watched, ...found.map((entry) => ({ ...entry, newest: null }))]
  const lists = await signaturesOf(options, all)
  const wanted = [...new Set([...lists.values()].flat())]
  const stored = new Set(
    wanted.length === 0
      ? []
      : (
          await db.query<{ hash: string }>(
            'select hash from history_transactions where chain_id = $1 and hash = any($2::text[])',
            [chainId, wanted],
          )
        ).map((row) => row.hash),
  )
  const reads = await transactionsOf(
    options,
    wanted.filter((signature) => !stored.has(signature)),
  )
  const unread = new Set(wanted.filter((signature) => !stored.has(signature) && !reads.has(signature)))
  // An address whose list holds a transaction the node would not give yet keeps its cursor, to read it again.
  const moves = all.flatMap((entry) => {
    const list = lists.get(entry.address) ?? []
    const newest = list[0]
    return newest && !list.some((signature) => unread.has(signature))
      ? [{ address: entry.address, from: entry.newest, to: newest }]
      : []
  })
  const owners = new Set(all.map((entry) => entry.owner))
  const everyAddress = new Set(all.map((entry) => entry.address))
  const discovered = [...reads.values()]
    .flatMap((read) => read.tokenAccounts)
    .filter((entry) => owners.has(entry.owner) && !everyAddress.has(entry.address))
  const listing = [...found, ...discovered]
  // Nothing new (most polls): no write.
  if (reads.size === 0 && moves.length === 0 && listing.length === 0) return { written: 0, behind: false }
  await describe(db, chainId, [...reads.values()])
  await db.transaction(async (tx) => {
    await Store.record(
      tx,
      chainId,
      [...reads.values()].map((read) => ({
        number: read.slot,
        timestamp: read.timestamp,
        transactions: [read.transaction],
      })),
    )
    await Watchlist.add(tx, chainId, listing, Date.now())
    await Watchlist.advance(tx, chainId, moves)
  })
  return { written: reads.size, behind: discovered.length > 0 }
}

/** The token accounts (SPL Token and Token-2022) of each wallet, with the wallet as their owner. */
async function tokenAccountsOf(rpc: JsonRpc.Client, wallets: readonly string[]) {
  const calls = wallets.flatMap((wallet) =>
    SolanaTransactions.tokenPrograms.map(
      (programId): JsonRpc.Call => ['getTokenAccountsByOwner', [wallet, { programId }, accountsOnly]],
    ),
  )
  const answers = await batched(rpc, calls)
  return answers.flatMap((answer, i) => {
    const owner = wallets[Math.floor(i / SolanaTransactions.tokenPrograms.length)] ?? ''
    const value = (answer as { value?: unknown } | null)?.value
    if (answer instanceof RpcFailure || !Array.isArray(value))
      throw unreadable('getTokenAccountsByOwner', answer)
    return value.flatMap((entry: { pubkey?: unknown }) =>
      typeof entry?.pubkey === 'string' ? [{ address: entry.pubkey, owner }] : [],
    )
  })
}

/** Each address's signatures newer than its cursor, newest first, paging back until the cursor is reached. */
async function signaturesOf(options: SyncOptions, watched: readonly Watchlist.Watched[]) {
  const lists = new Map<string, string[]>()
  let pending = watched.map((entry) => ({ entry, before: undefined as string | undefined, pages: 0 }))
  while (pending.length > 0) {
    const answers = await batched(
      options.rpc,
      pending.map(({ entry, before }): JsonRpc.Call => {
        const limit = entry.newest === null ? firstRead : pageSize
        const until = entry.newest ?? undefined
        return ['getSignaturesForAddress', [entry.address, { ...confirmed, limit, until, before }]]
      }),
    )
    const next: typeof pending = []
    for (const [i, page] of pending.entries()) {
      const answer = answers[i]
      if (!Array.isArray(answer)) throw unreadable('getSignaturesForAddress', answer)
      const signatures = answer.flatMap((entry: { signature?: unknown }) =>
        typeof entry?.signature === 'string' ? [entry.signature] : [],
      )
      const list = [...(lists.get(page.entry.address) ?? []), ...signatures]
      lists.set(page.entry.address, list)
      const full = page.entry.newest !== null && signatures.length === pageSize
      if (full && page.pages + 1 < maxPages)
        next.push({ ...page, before: list.at(-1), pages: page.pages + 1 })
      else if (full)
        options.warn(
          `${options.chainId}: ${page.entry.address} has more than ${maxPages * pageSize} new transactions; older ones are skipped`,
        )
    }
    pending = next
  }
  return lists
}

const warned = new Set<string>()

/** The transactions of `signatures` the node gives; one it answers null for is left for the next read. */
async function transactionsOf(options: SyncOptions, signatures: readonly string[]) {
  const params = { ...confirmed, encoding: 'json', maxSupportedTransactionVersion: 0 }
  const answers = await batched(
    options.rpc,
    signatures.map((signature): JsonRpc.Call => ['getTransaction', [signature, params]]),
  )
  const reads = new Map<string, SolanaTransactions.Read>()
  for (const [i, answer] of answers.entries()) {
    const signature = signatures[i] ?? ''
    if (answer instanceof RpcFailure) throw answer
    if (answer !== null) {
      reads.set(signature, SolanaTransactions.read(answer))
      continue
    }
    if (warned.size > 10_000) warned.clear()
    if (!warned.has(signature))
      options.warn(`${options.chainId}: ${signature} is listed but not readable yet`)
    warned.add(signature)
  }
  return reads
}

/** Mints no one described yet: named by their address, shortened; decimals as the node reported them. */
async function describe(db: SyncOptions['db'], chainId: string, reads: readonly SolanaTransactions.Read[]) {
  const decimals = new Map(reads.flatMap((read) => read.mints).map(({ mint, decimals }) => [mint, decimals]))
  const missing = await Store.unknownAssets(db, chainId, [...decimals.keys()])
  await Store.saveAssets(
    db,
    chainId,
    missing.map((mint) => ({
      address: mint,
      kind: 'fungible',
      name: '',
      symbol: `${mint.slice(0, 4)}…${mint.slice(-4)}`,
      decimals: decimals.get(mint) ?? null,
    })),
  )
}

/** Calls in batches of {@link callsPerBatch}, answers in order. */
async function batched(rpc: JsonRpc.Client, calls: readonly JsonRpc.Call[]): Promise<unknown[]> {
  const answers: unknown[] = []
  for (let i = 0; i < calls.length; i += callsPerBatch)
    answers.push(...(await rpc.batch(calls.slice(i, i + callsPerBatch))))
  return answers
}

function unreadable(method: string, answer: unknown): Error {
  return answer instanceof RpcFailure ? answer : new RpcUnavailable(`${method}: an answer of another shape`)
}
