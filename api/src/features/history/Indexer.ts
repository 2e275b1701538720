/**
 * The history indexer: one {@link Follower} per configured chain whose family is registered
 * (`families/index.ts`), each in its own loop, so one chain's dead RPC never holds up another. A loop
 * writes only while its replica holds the chain's lock ({@link WriterLock}); otherwise it tries again every
 * `lockRetryMs`. RPC and database failures are retried with backoff, never thrown.
 */
import type { Chain, Config } from '../../Config.ts'
import type { Database } from '../../Database.ts'
import { follow, type LoopStatus } from '../../internal/follow.ts'
import * as Follower from './Follower.ts'
import { familyOf } from './families/index.ts'
import type { Family, Follower as FollowerType, Source } from './Source.ts'
import * as WriterLock from './WriterLock.ts'

export type IndexerOptions = {
  db: Database
  config: Pick<Config, 'chains'>
  /** PostgreSQL URL for the writer lock's own session. @default process.env.DATABASE_URL */
  lockUrl?: string | undefined
  /** How often a caught-up chain asks for new blocks: anvil mines at once, so a transfer shows within ~1 s. @default 300 */
  pollMs?: number | undefined
  /** How often a replica without a chain's lock tries to take it. @default 1_000 */
  lockRetryMs?: number | undefined
  /** The longest wait between retries after failures (the wait doubles from `pollMs`). @default 10_000 */
  maxBackoffMs?: number | undefined
  /** Told about outages, recoveries and deep reorgs. @default console.warn */
  log?: ((message: string) => void) | undefined
} & Pick<Follower.FollowerOptions, 'batchBlocks' | 'keepBlocks' | 'backfill'>

type ChainStatus = {
  chainId: string
  /** Whether this replica holds the chain's writer lock. */
  writing: boolean
  /** Blocks (transactions, for a family with a follower of its own) this replica appended since it started. */
  indexed: number
  /** The last failure while it persists. */
  failing: string | undefined
}

export type Indexer = {
  status(): ChainStatus[]
  /** Ends every loop (a step in flight finishes first) and gives the locks up. */
  stop(): Promise<void>
}

/**
 * @example
 * const indexer = Indexer.start({ db, config })
 * process.once('SIGTERM', () => indexer.stop())
 */
export function start(options: IndexerOptions): Indexer {
  const { db } = options
  const pollMs = options.pollMs ?? 300
  const lockRetryMs = options.lockRetryMs ?? 1_000
  const maxBackoffMs = options.maxBackoffMs ?? 10_000
  const log = options.log ?? ((message: string) => console.warn(`[airlock-api] history: ${message}`))
  const lock = WriterLock.open(db, { url: options.lockUrl })
  const stopping = new AbortController()
  const statuses: ChainStatus[] = []

  const sources: Source[] = []
  const followerOf = (chain: Chain, family: Family): FollowerType => {
    if (!('source' in family)) return family.follower({ db, chain, warn: log })
    const source = family.source(chain)
    sources.push(source)
    return Follower.create({ ...options, chain, source, warn: log })
  }

  const run = (chain: Chain, follower: FollowerType): Promise<LoopStatus> => {
    const status: ChainStatus = { chainId: chain.id, writing: false, indexed: 0, failing: undefined }
    statuses.push(status)
    return follow({
      chainId: chain.id,
      lock,
      step: follower.step,
      signal: stopping.signal,
      pollMs,
      lockRetryMs,
      maxBackoffMs,
      log,
      doing: 'indexing',
      onStatus: ({ writing, failing }) =>
        Object.assign(status, { writing, failing, indexed: follower.indexed }),
    })
  }

  const loops = options.config.chains.flatMap((chain) => {
    const family = familyOf(chain.id)
    return family ? [run(chain, followerOf(chain, family))] : []
  })

  return {
    status: () => statuses.map((status) => ({ ...status })),
    async stop() {
      stopping.abort()
      await Promise.all(loops)
      for (const source of sources) source.close?.()
      await lock.close()
    },
  }
}
