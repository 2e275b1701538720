/**
 * The indexer's writes. Every change moves the chain's cursor from the value the writer read to a new one
 * in the same transaction (compare and set): a writer that lost its lock to another (or never had it, on a
 * shared PGlite) finds the cursor moved and writes nothing. Inserts skip rows already there, so a retried
 * batch adds none twice.
 */
import type { Chain } from '../../Config.ts'
import type { Database } from '../../Database.ts'
import type { AssetInfo, Block } from './Source.ts'
import * as Spam from './Spam.ts'

type Db = Pick<Database, 'query' | 'transaction'>

/** The last indexed block. Height -1 (hash '') is "nothing yet, start at genesis". */
export type Cursor = { height: number; hash: string }

/** Thrown inside a write whose cursor another writer moved, to roll it back. */
class Superseded extends Error {}

export async function cursor(db: Pick<Database, 'query'>, chainId: string): Promise<Cursor | undefined> {
  const [row] = await db.query<{ height: unknown; hash: string }>(
    'select height, hash from history_cursors where chain_id = $1',
    [chainId],
  )
  return row ? { height: Number(row.height), hash: row.hash } : undefined
}

/** Sets where a chain's indexing begins, unless a writer already did. */
export async function begin(db: Pick<Database, 'query'>, chainId: string, start: Cursor): Promise<void> {
  await db.query(
    'insert into history_cursors (chain_id, height, hash) values ($1, $2, $3) on conflict (chain_id) do nothing',
    [chainId, start.height, start.hash],
  )
}

/** The kept hashes of recent blocks, newest first. */
export async function recentBlocks(db: Pick<Database, 'query'>, chainId: string): Promise<Cursor[]> {
  const rows = await db.query<{ number: unknown; hash: string }>(
    'select number, hash from history_blocks where chain_id = $1 order by number desc',
    [chainId],
  )
  return rows.map((row) => ({ height: Number(row.number), hash: row.hash }))
}

/**
 * Appends `blocks` (consecutive, following `from`) and moves the cursor to the last; keeps the hashes of the
 * newest `keep` blocks. Resolves false, writing nothing, when the cursor is no longer at `from`.
 */
export async function append(db: Db, chainId: string, from: Cursor, blocks: Block[], keep: number) {
  const last = blocks.at(-1)
  if (!last) return true
  return moveCursor(db, chainId, from, { height: last.number, hash: last.hash }, async (tx) => {
    await tx.query(
      `insert into history_blocks (chain_id, number, hash)
       select $1, * from unnest($2::bigint[], $3::text[]) on conflict do nothing`,
      [chainId, blocks.map((block) => block.number), blocks.map((block) => block.hash)],
    )
    await record(tx, chainId, blocks)
    await tx.query('delete from history_blocks where chain_id = $1 and number <= $2', [
      chainId,
      last.number - keep,
    ])
  })
}

/** Transactions grouped by the block (slot) they landed in, for a family that reads no whole blocks. */
export type Landed = Pick<Block, 'number' | 'timestamp' | 'transactions'>

/** Forgets everything above `to` (a reorg replaced it) and moves the cursor back there. */
export async function rewind(db: Db, chainId: string, from: Cursor, to: Cursor): Promise<boolean> {
  return moveCursor(db, chainId, from, to, async (tx) => {
    for (const [table, column] of [
      ['history_accounts', 'block_number'],
      ['history_transfers', 'block_number'],
      ['history_transactions', 'block_number'],
      ['history_blocks', 'number'],
    ])
      await tx.query(`delete from ${table} where chain_id = $1 and ${column} > $2`, [chainId, to.height])
  })
}

async function moveCursor(
  db: Db,
  chainId: string,
  from: Cursor,
  to: Cursor,
  work: (tx: Pick<Database, 'query'>) => Promise<void>,
): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      const moved = await tx.query(
        `update history_cursors set height = $4, hash = $5
         where chain_id = $1 and height = $2 and hash = $3 returning chain_id`,
        [chainId, from.height, from.hash, to.height, to.hash],
      )
      if (moved.length === 0) throw new Superseded()
      await work(tx)
    })
    return true
  } catch (error) {
    if (error instanceof Superseded) return false
    throw error
  }
}

/**
 * Writes the blocks' transactions, transfers and the accounts they concern, inside the caller's database
 * transaction; rows already there are skipped. A family that follows accounts, not blocks, writes through
 * this alone (its slots have no kept hashes).
 */
export async function record(tx: Pick<Database, 'query'>, chainId: string, blocks: readonly Landed[]) {
  const t = columns(8)
  const f = columns(9)
  const a = columns(5)
  for (const block of blocks) {
    for (const x of block.transactions) {
      t.push(x.hash, block.number, x.index, block.timestamp, x.status, x.kind, x.from, x.to)
      // A failed transaction concerns only its sender: it moved nothing of anyone else's.
      const parties = new Set(x.status === 'failed' ? [x.from] : [x.from, x.to])
      for (const y of x.transfers) {
        f.push(
          x.hash,
          block.number,
          y.position,
          y.kind,
          y.asset,
          y.tokenId ?? null,
          y.from,
          y.to,
          y.amount.toString(),
        )
        parties.add(y.from).add(y.to)
      }
      parties.delete('')
      for (const party of parties) a.push(party, x.hash, block.timestamp, block.number, x.index)
    }
  }
  await tx.query(
    `insert into history_transactions (chain_id, hash, block_number, tx_index, mined_at, status, kind, sender, recipient)
     select $1, * from unnest($2::text[], $3::bigint[], $4::int[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[])
     on conflict do nothing`,
    [chainId, ...t.arrays],
  )
  await tx.query(
    `insert into history_transfers
       (chain_id, tx_hash, block_number, position, kind, asset, token_id, sender, recipient, amount)
     select $1, * from unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::numeric[])
     on conflict do nothing`,
    [chainId, ...f.arrays],
  )
  await tx.query(
    `insert into history_accounts (chain_id, address, tx_hash, mined_at, block_number, tx_index)
     select $1, * from unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::int[]) on conflict do nothing`,
    [chainId, ...a.arrays],
  )
}

/** Column arrays filled a row at a time, for one `unnest` insert of many rows. */
function columns(count: number) {
  const arrays: unknown[][] = Array.from({ length: count }, () => [])
  return {
    arrays,
    push: (...row: unknown[]) => {
      for (const [i, value] of row.entries()) arrays[i]?.push(value)
    },
  }
}

/** Of `addresses`, those whose metadata is not kept yet. */
export async function unknownAssets(
  db: Pick<Database, 'query'>,
  chainId: string,
  addresses: readonly string[],
): Promise<string[]> {
  if (addresses.length === 0) return []
  const rows = await db.query<{ address: string }>(
    'select address from history_assets where chain_id = $1 and address = any($2::text[])',
    [chainId, addresses],
  )
  const known = new Set(rows.map((row) => row.address))
  return addresses.filter((address) => !known.has(address))
}

/** Keeps tokens' metadata read from the chain; an NFT whose names advertise is marked spam. */
export async function saveAssets(db: Pick<Database, 'query'>, chainId: string, assets: readonly AssetInfo[]) {
  for (const asset of assets)
    await db.query(
      `insert into history_assets (chain_id, address, kind, name, symbol, decimals, is_spam)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing`,
      [
        chainId,
        asset.address,
        asset.kind,
        asset.name,
        asset.symbol,
        asset.decimals,
        asset.kind === 'nft' && Spam.advertises(asset.name, asset.symbol),
      ],
    )
}

/** The chain's configured tokens: their names, decimals and icons are the operator's, not the contract's. */
export async function saveConfigured(db: Pick<Database, 'query'>, chain: Chain): Promise<void> {
  for (const token of chain.tokens ?? [])
    await db.query(
      `insert into history_assets (chain_id, address, kind, name, symbol, decimals, icon_url)
       values ($1, $2, 'fungible', $3, $4, $5, $6)
       on conflict (chain_id, address) do update set kind = 'fungible', name = excluded.name,
         symbol = excluded.symbol, decimals = excluded.decimals, icon_url = excluded.icon_url`,
      [
        chain.id,
        // EVM contracts are keyed in lowercase; base58 mints are case-sensitive and stay as written.
        token.address.startsWith('0x') ? token.address.toLowerCase() : token.address,
        token.name,
        token.symbol,
        token.decimals,
        token.iconUrl ?? null,
      ],
    )
}
