/**
 * The NFTs an account holds on one chain, from the indexed transfers: for each contract and token id, what
 * the account received minus what it sent, listed when positive. It follows the index, so it is as
 * reorg-safe as the index is (a rewound block's transfers are gone, and with them what they gave), and
 * knows only what happened since the index began (`backfill`): an NFT received before then and never moved
 * since is not listed.
 *
 * A page costs one query (through the `history_transfers_nft_*` indexes), plus, for the NFTs it shows whose
 * contract's standard or metadata is not kept yet, one batch of calls to the chain (`NftMetadata.ts`). An
 * unreachable chain leaves those NFTs without metadata rather than failing the page.
 */
import { getAddress } from 'viem'
import type { Chain } from '../../Config.ts'
import type * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import * as Cursor from './Cursor.ts'
import * as Items from './Items.ts'
import * as JsonRpc from './JsonRpc.ts'
import * as NftMetadata from './NftMetadata.ts'

/** NFTs per page: a grid of two or three columns in the 360 px modal fills a few screens. */
const pageSize = 24

/** How long a page waits for the chain's metadata before it answers without. */
const rpcTimeoutMs = 3_000

/** Where a page ended: the last NFT's contract (lowercase) and token id. */
export type Position = { contract: string; tokenId: string }

export type PageOptions = {
  /** The account as the index keys it (lowercase hex). */
  account: string
  /** An EVM chain: its id, and the RPC its NFTs' metadata is read from. */
  chain: Pick<Chain, 'id' | 'rpcUrl'>
  after?: Position | undefined
  /** Epoch milliseconds, to date what is read. */
  now: number
  /** @default pageSize */
  limit?: number
}

export type Page = { items: Contract.Nft[]; next: Position | undefined }

type Row = {
  asset: string
  token_id: string
  amount: string
  name: string | null
  symbol: string | null
  is_spam: boolean | null
  standard: Contract.NftStandard | null
  token_name: string | null
  image_url: string | null
  read_at: unknown
}

/**
 * @example
 * const { items, next } = await Nfts.page(db, { account: '0xf39f…', chain, now: Date.now() })
 */
export async function page(db: Pick<Database, 'query'>, options: PageOptions): Promise<Page> {
  const { chain, now } = options
  const limit = options.limit ?? pageSize
  const params: unknown[] = [options.account, chain.id]
  let after = ''
  if (options.after) {
    const at = params.push(options.after.contract, options.after.tokenId)
    after = `where (o.asset, o.token_id::numeric) > ($${at - 1}, $${at}::numeric)`
  }
  const rows = await db.query<Row>(
    `with owned as (
       select asset, token_id, sum(amount) as amount
       from (
         select asset, token_id, amount from history_transfers
         where recipient = $1 and chain_id = $2 and kind = 'nft'
         union all
         select asset, token_id, -amount from history_transfers
         where sender = $1 and chain_id = $2 and kind = 'nft'
       ) as moves
       where token_id is not null
       group by asset, token_id
       having sum(amount) > 0
     )
     select o.asset, o.token_id, o.amount::text as amount, s.name, s.symbol, s.is_spam, s.standard,
       m.name as token_name, m.image_url, m.read_at
     from owned o
     left join history_assets s on s.chain_id = $2 and s.address = o.asset
     left join history_nft_tokens m on m.chain_id = $2 and m.contract = o.asset and m.token_id = o.token_id
     ${after}
     order by o.asset, o.token_id::numeric
     limit $${params.push(limit + 1)}`,
    params,
  )
  const shown = await complete(db, chain, rows.slice(0, limit), now)
  const last = shown.at(-1)
  return {
    items: shown.map((row) => item(chain.id, row)),
    next: rows.length > limit && last ? { contract: last.asset, tokenId: last.token_id } : undefined,
  }
}

/** The cursor of a page that ends at `position`, for this account and chain only. */
export function encode(position: Position, scope: Cursor.Scope): string {
  return Cursor.seal('nfts', [position.contract, position.tokenId], scope)
}

/** The position of a cursor {@link encode} made for `scope`, or undefined when it is not one. */
export function decode(cursor: string, scope: Cursor.Scope): Position | undefined {
  const values = Cursor.open('nfts', cursor, scope)
  if (values?.length !== 2) return undefined
  const [contract, tokenId] = values
  if (typeof contract !== 'string' || !/^0x[0-9a-f]{40}$/.test(contract)) return undefined
  if (typeof tokenId !== 'string' || !/^\d{1,78}$/.test(tokenId)) return undefined
  return { contract, tokenId }
}

/**
 * The rows with the standards and metadata the store lacks read from the chain, and kept. Without an
 * answer from the chain, the rows stay as they are.
 */
async function complete(
  db: Pick<Database, 'query'>,
  chain: PageOptions['chain'],
  rows: Row[],
  now: number,
): Promise<Row[]> {
  const unknown = [...new Set(rows.filter((row) => !row.standard).map((row) => row.asset))]
  const stale = rows.filter(
    (row) => row.read_at === null || Number(row.read_at) < now - NftMetadata.staleAfterMs,
  )
  if (unknown.length === 0 && stale.length === 0) return rows
  const rpc = JsonRpc.create(chain.rpcUrl, { timeoutMs: rpcTimeoutMs })
  try {
    const standards =
      unknown.length > 0 ? await NftMetadata.standards(rpc, unknown) : new Map<string, Contract.NftStandard>()
    const standardOf = (row: Row) => row.standard ?? standards.get(row.asset) ?? guess(row)
    const metadata = await NftMetadata.read(
      rpc,
      stale.map((row) => ({ contract: row.asset, tokenId: row.token_id, standard: standardOf(row) })),
    )
    await NftMetadata.save(db, chain.id, { standards, metadata }, now)
    const found = new Map(metadata.map((token) => [`${token.contract} ${token.tokenId}`, token]))
    return rows.map((row) => {
      const token = found.get(`${row.asset} ${row.token_id}`)
      return {
        ...row,
        standard: standardOf(row),
        ...(token ? { token_name: token.name, image_url: token.imageUrl } : {}),
      }
    })
  } catch (error) {
    if (error instanceof JsonRpc.RpcUnavailable) return rows
    throw error
  }
}

/** The standard of an NFT whose contract was never asked: only ERC-1155 holds more than one of a token. */
function guess(row: Pick<Row, 'amount'>): Contract.NftStandard {
  return BigInt(row.amount) > 1n ? 'erc1155' : 'erc721'
}

function item(chainId: string, row: Row): Contract.Nft {
  const collection = row.name || undefined
  return {
    chainId,
    contract: `${chainId}:${getAddress(row.asset)}`,
    tokenId: row.token_id,
    standard: row.standard ?? guess(row),
    amount: row.amount,
    name: row.token_name || (collection ? Items.label(`${collection} #${row.token_id}`, 300) : undefined),
    symbol: Items.label(row.symbol, 40) || undefined,
    collection: Items.label(collection, 200) || undefined,
    imageUrl: row.image_url || undefined,
    spam: row.is_spam === true,
  }
}
