/**
 * Every transaction that landed, kept the way an indexer asks for it: by signature (getTransaction,
 * getSignatureStatuses) and by each account it loaded, oldest first (getSignaturesForAddress walks it
 * backwards). litesvm keeps no history of its own beyond duplicate detection, so this is the chain's record.
 */
import type { Address } from '@solana/kit'
import type { TransactionErrorJson } from './Errors.ts'
import type * as Message from './Message.ts'
import type { TokenBalance } from './Tokens.ts'

export type InnerInstruction = {
  programIdIndex: number
  accounts: number[]
  data: string
  stackHeight: number
}

export type Landed = {
  signature: string
  slot: bigint
  blockTime: number
  wire: Message.Wire
  keys: Message.Keys
  /** The keys the transaction could write: what account subscriptions watch. */
  writable: Address[]
  err: TransactionErrorJson | null
  fee: bigint
  preBalances: bigint[]
  postBalances: bigint[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
  logMessages: string[]
  innerInstructions: { index: number; instructions: InnerInstruction[] }[]
  computeUnitsConsumed: bigint
  memo: string | null
}

export type HistoryQuery = {
  before?: string
  until?: string
  limit: number
  /** Whether a landed transaction counts yet (the request's commitment). */
  visible: (landed: Landed) => boolean
}

export class Ledger {
  private readonly bySignature = new Map<string, Landed>()
  private readonly byAddress = new Map<string, Landed[]>()

  get transactionCount(): number {
    return this.bySignature.size
  }

  add(landed: Landed): void {
    this.bySignature.set(landed.signature, landed)
    for (const key of new Set(landed.keys.all)) {
      const list = this.byAddress.get(key)
      if (list) list.push(landed)
      else this.byAddress.set(key, [landed])
    }
  }

  get(signature: string): Landed | undefined {
    return this.bySignature.get(signature)
  }

  /** Newest first, after `before` and down to (not including) `until`, as getSignaturesForAddress pages. */
  history(address: Address, query: HistoryQuery): Landed[] {
    const list = this.byAddress.get(address) ?? []
    const found: Landed[] = []
    // An unknown `before` is ignored, as the node does: the page starts at the newest transaction.
    let started = query.before === undefined || !list.some((l) => l.signature === query.before)
    for (let i = list.length - 1; i >= 0 && found.length < query.limit; i--) {
      const landed = list[i]
      if (!landed) continue
      if (!started) {
        started = landed.signature === query.before
        continue
      }
      if (landed.signature === query.until) break
      if (query.visible(landed)) found.push(landed)
    }
    return found
  }
}
