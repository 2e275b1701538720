/**
 * A transaction the visitor sent from the modal (Send, a swap) in this page load. Its feature records it; the
 * Account view's Activity tab shows it until the API's history lists it, which takes the indexer a while.
 * Here rather than in either feature, so neither imports the other.
 */
export type RecentSend = {
  /** The transaction's id on its chain: hash (EVM), signature (Solana), txid (Bitcoin). */
  id: string
  /** CAIP-2. */
  chainId: string
  /** The sending account, as the connection names it. */
  from: string
  to: string
  /** The asset sent. */
  symbol: string
  /** The amount sent, in the asset's base units. */
  amount: bigint
  decimals: number
  /** `pending` until the chain answers, then what it answered. */
  status: 'pending' | 'confirmed' | 'failed'
  /** When it was sent, in ms since the epoch. */
  time: number
  /** What a swap gave for it (at least; the chain's receipt says exactly). Absent for a send. */
  received?: { symbol: string; amount: bigint; decimals: number } | undefined
}

/** What the send feature adds to the snapshot for others to read (the `send` slice is its own views'). */
export type RecentSendsSlice = {
  sends: {
    /** This page load's sends, the newest first. */
    recent: readonly RecentSend[]
  }
}

/** What the swaps feature adds to the snapshot for the Activity tab, as Send adds {@link RecentSendsSlice}. */
export type RecentSwapsSlice = {
  swapped: {
    /** This page load's swaps, the newest first. */
    recent: readonly RecentSend[]
  }
}
