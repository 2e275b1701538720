/**
 * Follows one chain into the store, a step at a time: each {@link Follower.step} reads where the store
 * stands, then either appends the next blocks, notices the chain was reorganised and rewinds to the fork
 * point, or finds nothing new. All state is in the database, so a restarted process (or another replica
 * that took the lock over) continues exactly where the last write left off.
 */
import type { Chain } from '../../Config.ts'
import type { Database } from '../../Database.ts'
import type { Block, Follower, Source, Step } from './Source.ts'
import * as Store from './Store.ts'

export type FollowerOptions = {
  db: Pick<Database, 'query' | 'transaction'>
  chain: Chain
  source: Source
  /** Most blocks read and written in one step while catching up. @default 100 */
  batchBlocks?: number | undefined
  /** How many recent block hashes are kept: the deepest reorg followed exactly. @default 128 */
  keepBlocks?: number | undefined
  /** On first start, how far back from the head indexing begins (a fresh devnet: from genesis). @default 10_000 */
  backfill?: number | undefined
  /** Told when a reorg is deeper than the kept hashes (the fork point is then a guess). */
  warn?: ((message: string) => void) | undefined
}

/** Metadata of this many assets is remembered in memory as known; past it the memo starts over. */
const memoLimit = 100_000

/**
 * @example
 * const follower = Follower.create({ db, chain, source: Eip155.source(chain) })
 * while ((await follower.step()) === 'behind');
 */
export function create(options: FollowerOptions): Follower {
  const { db, chain, source } = options
  const batchBlocks = options.batchBlocks ?? 100
  const keepBlocks = options.keepBlocks ?? 128
  const backfill = options.backfill ?? 10_000
  const known = new Set<string>()
  let configured = false
  let indexed = 0

  const start = async (): Promise<Store.Cursor> => {
    const head = await source.head()
    const first = Math.max(0, head - backfill)
    const before =
      first === 0
        ? { height: -1, hash: '' }
        : { height: first - 1, hash: (await source.hashAt(first - 1)) ?? '' }
    await Store.begin(db, chain.id, before)
    return (await Store.cursor(db, chain.id)) ?? before
  }

  // Reads metadata of the tokens these blocks move that the store does not have yet.
  const describe = async (blocks: Block[]) => {
    const assets = new Map<string, 'fungible' | 'nft'>()
    for (const block of blocks)
      for (const tx of block.transactions)
        for (const transfer of tx.transfers)
          if ((transfer.kind === 'fungible' || transfer.kind === 'nft') && !known.has(transfer.asset))
            assets.set(transfer.asset, transfer.kind)
    const missing = await Store.unknownAssets(db, chain.id, [...assets.keys()])
    if (missing.length > 0) {
      const infos = await source.describe(
        missing.map((address) => ({ address, kind: assets.get(address) ?? 'fungible' })),
      )
      await Store.saveAssets(db, chain.id, infos)
    }
    if (known.size > memoLimit) known.clear()
    for (const address of assets.keys()) known.add(address)
  }

  // Walks the kept hashes down to the newest block the chain still has, and forgets what is above it.
  const rewind = async (at: Store.Cursor): Promise<Step> => {
    const recent = await Store.recentBlocks(db, chain.id)
    let fork: Store.Cursor | undefined
    for (const kept of recent)
      if ((await source.hashAt(kept.height)) === kept.hash) {
        fork = kept
        break
      }
    if (!fork) {
      const below = (recent.at(-1)?.height ?? at.height) - 1
      fork =
        below < 0 ? { height: -1, hash: '' } : { height: below, hash: (await source.hashAt(below)) ?? '' }
      options.warn?.(
        `${chain.id}: a reorg deeper than ${recent.length} blocks; indexing again from ${below + 1}`,
      )
    }
    return (await Store.rewind(db, chain.id, at, fork)) ? 'rewound' : 'superseded'
  }

  const step = async (): Promise<Step> => {
    if (!configured) {
      await Store.saveConfigured(db, chain)
      configured = true
    }
    const at = (await Store.cursor(db, chain.id)) ?? (await start())
    const head = await source.head()
    if (head < at.height) return rewind(at)
    if (head === at.height)
      return at.height < 0 || (await source.hashAt(head)) === at.hash ? 'idle' : rewind(at)
    const to = Math.min(head, at.height + batchBlocks)
    const blocks = linked(await source.blocks(at.height + 1, to))
    const first = blocks[0]
    if (!first) return 'idle'
    if (at.height >= 0 && first.parentHash !== at.hash) return rewind(at)
    await describe(blocks)
    if (!(await Store.append(db, chain.id, at, blocks, keepBlocks))) return 'superseded'
    indexed += blocks.length
    return (blocks.at(-1)?.number ?? to) < head ? 'behind' : 'idle'
  }

  return {
    step,
    get indexed() {
      return indexed
    },
  }
}

/**
 * The blocks up to the first that does not follow its predecessor: the chain was replaced in the middle of
 * the read, and the next step finds where.
 */
function linked(blocks: Block[]): Block[] {
  const end = blocks.findIndex((block, i) => i > 0 && block.parentHash !== blocks[i - 1]?.hash)
  return end === -1 ? blocks : blocks.slice(0, end)
}
