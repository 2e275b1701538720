/**
 * What the indexer asks of a chain, whatever its family: a {@link Source} yields blocks already normalised
 * into transactions and transfers, and a {@link Family} makes sources for its chains and reads its
 * addresses. A family whose nodes serve no blocks (Solana's RPC here has no getBlock) brings a
 * {@link Follower} of its own instead, and may start following an account when the route is asked about it
 * ({@link Family.watch}). The indexer, the store and the route know only these types, so adding a chain
 * family is one file under `families/` and one line in `families/index.ts`.
 */
import type { Chain } from '../../Config.ts'
import type { Database } from '../../Database.ts'

/** A block of the canonical chain, as far as the source knows. */
export type Block = {
  number: number
  hash: string
  /** The hash of block `number - 1`: how the indexer notices that the chain it followed was replaced. */
  parentHash: string
  /** Epoch milliseconds. */
  timestamp: number
  transactions: Transaction[]
}

/** What a transaction did when no transfer of it concerns the account looking at it. */
export type TransactionKind = 'send' | 'execute' | 'approve' | 'deploy'

export type Transaction = {
  hash: string
  /** Its position in the block. */
  index: number
  status: 'confirmed' | 'failed'
  kind: TransactionKind
  /** Addresses in the family's normal form ({@link Family.account}). */
  from: string
  /** '' when none; a deployment names the contract it created. */
  to: string
  /** What it moved; empty for a failed transaction, whose effects were undone. */
  transfers: Transfer[]
}

export type Transfer = {
  /** Unique within its transaction, in the order the transfers happened. */
  position: number
  /**
   * `fee`: native currency the sender paid the network (to ''), shown as a transfer of its own and never
   * read as a send or a burn.
   */
  kind: 'native' | 'fungible' | 'nft' | 'fee'
  /** The token contract (mint, program…); '' for the native currency. */
  asset: string
  tokenId?: string | undefined
  /** '' for a mint. */
  from: string
  /** '' for a burn. */
  to: string
  /** In the asset's smallest unit. */
  amount: bigint
}

/** A token's metadata, read once and kept. */
export type AssetInfo = {
  address: string
  kind: 'fungible' | 'nft'
  name: string
  symbol: string
  /** Unknown when the contract does not say: amounts are then shown unscaled. */
  decimals: number | null
}

/** One chain, read through its RPC. Every method throws when the RPC cannot be reached. */
export type Source = {
  /** CAIP-2. */
  readonly chainId: string
  /** The height of the newest block. */
  head(): Promise<number>
  /** The hash of the canonical block at `height`; undefined past the head. */
  hashAt(height: number): Promise<string | undefined>
  /** Blocks `from..to` (inclusive), in order; fewer when the chain is shorter. */
  blocks(from: number, to: number): Promise<Block[]>
  /** Metadata of tokens first seen in transfers of `kind`; a token that does not answer gets empty names. */
  describe(assets: readonly { address: string; kind: AssetInfo['kind'] }[]): Promise<AssetInfo[]>
  /** Lets go of idle connections to the RPC, once the indexer stops (a Bitcoin node's shutdown waits for them). */
  close?(): void
}

/** `behind`: more is waiting; `idle`: caught up; `superseded`: another writer moved first. */
export type Step = 'behind' | 'idle' | 'rewound' | 'superseded'

/** Follows one chain into the store, a step at a time; the indexer calls `step` while it holds the lock. */
export type Follower = {
  step(): Promise<Step>
  /** Transactions or blocks this follower appended (not those of other writers). */
  readonly indexed: number
}

type Db = Pick<Database, 'query' | 'transaction'>

/** What a family's own follower is given. */
export type FollowerContext = {
  db: Db
  chain: Chain
  /** Told about what an operator should know (history skipped, an RPC's odd answer). */
  warn: (message: string) => void
}

/** A chain family: `eip155`, `solana`, `bip122`. */
export type Family = {
  /** The CAIP-2 namespace its chains' ids start with. */
  readonly namespace: string
  /**
   * The address as the index keys it (EVM: lowercase hex), or undefined when it is not one of this family's
   * addresses.
   */
  account(address: string): string | undefined
  /**
   * Called by the history route before it reads `account`'s items on `chain`: a family that follows
   * accounts rather than blocks starts following this one here. Never throws; bounded in time.
   */
  watch?(context: { db: Db; chain: Chain }, account: string): Promise<void>
} & (
  | {
      /** A source the indexer follows block by block (`Follower.ts`), with reorgs found by block hashes. */
      source(chain: Chain): Source
    }
  | {
      /** A follower of the family's own, for chains whose RPC serves no blocks. */
      follower(context: FollowerContext): Follower
    }
)
