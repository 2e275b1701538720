/**
 * Solana chains (`solana:*`), followed account by account rather than block by block.
 *
 * Why accounts: the chain's RPC here has no getBlock, and on a real cluster reading every block of a chain
 * that fills one every 400 ms with thousands of transactions, to keep the few that concern our visitors, is
 * a validator's work, not an API's. What a Solana RPC does serve is an account's history
 * (getSignaturesForAddress), so the index follows the accounts its visitors have: every wallet the history
 * route was asked about on the chain in the last {@link followDays} days, and each wallet's token accounts
 * (an SPL transfer to a wallet names its token account, not the wallet). The first request for a wallet
 * the index has never seen reads its newest 100 transactions before answering
 * (the route waits at most {@link firstReadMs}); from then on the indexer polls its accounts with the
 * chain's other followed addresses, so a transfer shows within a slot's confirmation and a poll (well under
 * 2 s). The cost grows with the number of followed addresses (one getSignaturesForAddress each per poll, in
 * batches of 100), not with the chain's traffic.
 *
 * What is read: transactions at `confirmed` (a slot a supermajority voted for; waiting for `finalized`
 * would add ~13 s). Only validators breaking the protocol undo a confirmed slot, and this devnet never
 * forks, so there is no rewind: an item of an abandoned slot would stay. Amounts, directions and the fee
 * are read from balance changes (`solanaTransactions.ts`). No configured list of addresses to follow
 * exists yet (the configuration has no field for one): a wallet is followed once someone asks about it.
 */
import { base58 } from '@scure/base'
import * as JsonRpc from '../JsonRpc.ts'
import type { Family, Follower, FollowerContext } from '../Source.ts'
import * as Store from '../Store.ts'
import * as BigJson from './BigJson.ts'
import * as SolanaSync from './solanaSync.ts'
import * as Watchlist from './solanaWatchlist.ts'

/** A wallet no one asked about for this long is no longer polled (its next request resumes where it was). */
const followDays = 30
/** How long the route waits for a new wallet's first read; past it, it answers and the read goes on. */
const firstReadMs = 3_000
/** The route asks the database about a wallet it saw at most this often. */
const recheckMs = 60 * 60 * 1000
const dayMs = 24 * 60 * 60 * 1000

export const family: Family = {
  namespace: 'solana',
  account,
  watch,
  follower,
}

/** An Ed25519 public key in base58 (32 bytes): not a Bitcoin Base58Check address of 25. */
function account(address: string): string | undefined {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return undefined
  try {
    return base58.decode(address).length === 32 ? address : undefined
  } catch {
    return undefined
  }
}

/** Per database (a test opens several in one process): when each chain's wallet was last asked about. */
const askedIn = new WeakMap<object, Map<string, number>>()
const configuredIn = new WeakMap<object, Set<string>>()

async function watch(context: Pick<FollowerContext, 'db' | 'chain'>, wallet: string): Promise<void> {
  const { db, chain } = context
  const asked = askedIn.get(db) ?? new Map<string, number>()
  askedIn.set(db, asked)
  const key = `${chain.id} ${wallet}`
  const now = Date.now()
  if ((asked.get(key) ?? 0) > now - recheckMs) return
  try {
    const added = await Watchlist.ask(db, chain.id, wallet, now)
    if (asked.size > 100_000) asked.clear()
    asked.set(key, now)
    if (!added) return
    const read = syncOf({ ...context, warn: () => {} })([{ address: wallet, owner: wallet, newest: null }])
    // Past the wait the read goes on; a failure leaves the wallet to the indexer's next step.
    await within(
      firstReadMs,
      read.catch(() => undefined),
    )
  } catch {
    // Never fails the history read: the route answers with what is indexed.
  }
}

function follower(context: FollowerContext): Follower {
  const sync = syncOf(context)
  let indexed = 0
  return {
    async step() {
      const since = Date.now() - followDays * dayMs
      const watched = await Watchlist.followed(context.db, context.chain.id, since)
      if (watched.length === 0) return 'idle'
      const synced = await sync(watched)
      indexed += synced.written
      return synced.behind ? 'behind' : 'idle'
    },
    get indexed() {
      return indexed
    },
  }
}

function syncOf({ db, chain, warn }: FollowerContext) {
  const rpc = JsonRpc.create(chain.rpcUrl, { parse: BigJson.parse })
  return async (watched: readonly Watchlist.Watched[]) => {
    const configured = configuredIn.get(db) ?? new Set<string>()
    configuredIn.set(db, configured)
    if (!configured.has(chain.id)) {
      await Store.saveConfigured(db, chain)
      configured.add(chain.id)
    }
    return SolanaSync.sync({ rpc, db, chainId: chain.id, warn }, watched)
  }
}

/** Resolves when `work` does, or after `ms`, whichever is first. */
function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  return Promise.race([work.then(() => undefined), timeout]).finally(() => clearTimeout(timer))
}
