/**
 * Follows each sponsoring chain's EntryPoint for the operations its paymaster paid for: every
 * `UserOperationEvent` naming the paymaster (an indexed topic, so `eth_getLogs` brings those alone) settles
 * its reservation at the `actualGasCost` the deposit really paid ({@link Ledger.settle}), and once the events
 * up to a block are read, reservations that expired before that block's time are released. Where it stands
 * is in the database (block height and hash), moved by compare and set, so a restarted process or a replica
 * continues where the last one left off; a hash the chain no longer has (a reorg, or a devnet started
 * afresh) steps back {@link reorgDepth} blocks, and what is read again is not counted again.
 */
import { type Address, type Hex, type PublicClient, parseAbi, parseAbiItem } from 'viem'
import type { Config } from '../../Config.ts'
import type { Database } from '../../Database.ts'
import { follow } from '../../internal/follow.ts'
import { evmClient } from '../../internal/rpc.ts'
import * as WriterLock from '../history/WriterLock.ts'
import * as Ledger from './Ledger.ts'

/** EntryPoint v0.7/v0.8's event for each operation it ran. */
export const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)

/** How far back a hash mismatch steps: deeper than any reorg an L1 or a rollup has had since the merge. */
export const reorgDepth = 64

export type FollowerOptions = {
  db: Pick<Database, 'query' | 'transaction'>
  /** CAIP-2. */
  chainId: string
  client: PublicClient
  paymaster: Address
  /** The EntryPoint the paymaster pays at. */
  entryPoint(): Promise<Address>
  /** Blocks read in one step while catching up. @default 1_000 */
  batchBlocks?: number | undefined
  /** On first start, how far back from the head reading begins. @default 1_000 */
  backfill?: number | undefined
}

/** `behind`: more is waiting; `idle`: caught up; `rewound`: stepped back; `superseded`: another replica moved first. */
export type Step = 'behind' | 'idle' | 'rewound' | 'superseded'

export type Follower = {
  step(): Promise<Step>
  /** Operations this follower counted (not those of other replicas). */
  readonly settled: number
}

type Cursor = { height: bigint; hash: string }

/**
 * @example
 * const follower = Follower.create({ db, chainId, client, paymaster, entryPoint: () => paymaster.entryPoint() })
 * while ((await follower.step()) === 'behind');
 */
export function create(options: FollowerOptions): Follower {
  const { db, chainId, client, paymaster } = options
  const batchBlocks = BigInt(options.batchBlocks ?? 1_000)
  const backfill = BigInt(options.backfill ?? 1_000)
  let settled = 0

  const hashAt = async (height: bigint) =>
    height < 0n ? '' : ((await client.getBlock({ blockNumber: height })).hash ?? '')

  const read = async (): Promise<Cursor | undefined> => {
    const [row] = await db.query<{ height: string; hash: string }>(
      'select height, hash from sponsorship_cursors where chain_id = $1',
      [chainId],
    )
    return row && { height: BigInt(row.height), hash: row.hash }
  }

  /** Moves the cursor from `from` to `to`, unless another replica moved it first. */
  const move = async (from: Cursor | undefined, to: Cursor): Promise<boolean> => {
    const rows = from
      ? await db.query(
          `update sponsorship_cursors set height = $2, hash = $3
           where chain_id = $1 and height = $4 and hash = $5 returning 1`,
          [chainId, to.height.toString(), to.hash, from.height.toString(), from.hash],
        )
      : await db.query(
          'insert into sponsorship_cursors (chain_id, height, hash) values ($1, $2, $3) on conflict do nothing returning 1',
          [chainId, to.height.toString(), to.hash],
        )
    return rows.length > 0
  }

  const step = async (): Promise<Step> => {
    const head = await client.getBlockNumber()
    let at = await read()
    if (!at) {
      const height = head - backfill < 0n ? -1n : head - backfill
      const start = { height, hash: await hashAt(height) }
      if (!(await move(undefined, start))) return 'superseded'
      at = start
    }
    if (at.height > head || (at.height >= 0n && (await hashAt(at.height)) !== at.hash)) {
      const back = at.height - BigInt(reorgDepth)
      const height = back < -1n ? -1n : back > head ? head : back
      return (await move(at, { height, hash: await hashAt(height) })) ? 'rewound' : 'superseded'
    }
    if (at.height === head) return 'idle'
    const from = at.height + 1n
    const to = head < from + batchBlocks - 1n ? head : from + batchBlocks - 1n
    const [logs, last] = await Promise.all([
      client.getLogs({
        address: await options.entryPoint(),
        event: userOperationEvent,
        args: { paymaster },
        fromBlock: from,
        toBlock: to,
      }),
      client.getBlock({ blockNumber: to }),
    ])
    for (const log of logs) {
      const { userOpHash, sender, nonce, actualGasCost } = log.args
      if (!userOpHash || !sender || nonce === undefined || actualGasCost === undefined) continue
      const included = { userOpHash, sender, nonce, actualGasCost, blockNumber: log.blockNumber ?? to }
      if (await Ledger.settle(db, chainId, included)) settled++
    }
    await Ledger.release(db, chainId, Number(last.timestamp))
    if (!(await move(at, { height: to, hash: last.hash ?? ('' as Hex) }))) return 'superseded'
    return to < head ? 'behind' : 'idle'
  }

  return {
    step,
    get settled() {
      return settled
    },
  }
}

export type StartOptions = {
  db: Database
  config: Pick<Config, 'chains'>
  /** PostgreSQL URL for the writer lock's own session. @default process.env.DATABASE_URL */
  lockUrl?: string | undefined
  /** How often a caught-up chain is asked for new blocks. @default 1_000 */
  pollMs?: number | undefined
  /** Told about outages and recoveries. @default console.warn */
  log?: ((message: string) => void) | undefined
}

// The writer lock's advisory namespace: 'SPON', apart from the history indexer's.
const lockNamespace = 0x53504f4e

/**
 * Follows every chain with a paymaster, one replica per chain at a time (a writer lock, as the history
 * indexer's), until `stop()`.
 * @example
 * const followers = Follower.start({ db, config, lockUrl: database.url })
 * process.once('SIGTERM', () => followers.stop())
 */
export function start(options: StartOptions): { stop(): Promise<void> } {
  const log = options.log ?? ((message: string) => console.warn(`[airlock-api] sponsorship: ${message}`))
  const lock = WriterLock.open(options.db, { url: options.lockUrl, namespace: lockNamespace })
  const stopping = new AbortController()
  const loops = options.config.chains.flatMap((chain) => {
    const paymaster = chain.accountAbstraction?.paymaster?.address as Address | undefined
    if (!paymaster) return []
    const client = evmClient(chain.rpcUrl)
    let entryPoint: Promise<Address> | undefined
    const follower = create({
      db: options.db,
      chainId: chain.id,
      client,
      paymaster,
      entryPoint: () => {
        entryPoint ??= client
          .readContract({ address: paymaster, abi: paymasterAbi, functionName: 'entryPoint' })
          .catch((error: unknown) => {
            entryPoint = undefined
            throw error
          })
        return entryPoint
      },
    })
    return [
      follow({
        chainId: chain.id,
        lock,
        step: follower.step,
        signal: stopping.signal,
        pollMs: options.pollMs ?? 1_000,
        lockRetryMs: 1_000,
        maxBackoffMs: 10_000,
        log,
        doing: 'following',
      }),
    ]
  })
  return {
    async stop() {
      stopping.abort()
      await Promise.all(loops)
      await lock.close()
    },
  }
}

const paymasterAbi = parseAbi(['function entryPoint() view returns (address)'])
