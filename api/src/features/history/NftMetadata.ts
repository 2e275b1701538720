/**
 * What an NFT is and looks like, read from its chain the first time the NFT listing shows it and kept in the
 * database: its contract's standard (ERC-1155 when the contract says so through ERC-165, else ERC-721) and
 * its metadata (name and image) from `tokenURI` (ERC-721) or `uri` (ERC-1155).
 *
 * Only a data: URI is read. The server never fetches a token URI: it is whatever the contract's author wrote
 * (an internal address, a slow host, a tracker), and following it would let anyone who mints make the server
 * call out. Nor does it hand such a URL to browsers as an image, for the same reasons on their side: an image
 * is served only as a `data:image/…` URI. A token whose URI is http(s) or ipfs therefore has no name of its
 * own and no image here.
 */
import { decodeAbiParameters } from 'viem'
import type * as Contract from '../../contract/index.ts'
import { nftImageMax } from '../../contract/nfts.ts'
import type { Database } from '../../Database.ts'
import type * as JsonRpc from './JsonRpc.ts'

/** Metadata is read again after a day: some collections reveal or change their art after the mint. */
export const staleAfterMs = 24 * 60 * 60 * 1000

/** A longer token URI is not read (on-chain art runs to tens of KB; this is well past it). */
const uriMax = 256 * 1024

/** A token's own name and image; '' when its URI gave none. */
export type Metadata = { name: string; imageUrl: string }

export type Token = { contract: string; tokenId: string; standard: Contract.NftStandard }

const selectors = {
  supportsInterface: '0x01ffc9a7',
  tokenURI: '0xc87b56dd',
  uri: '0x0e89341c',
} as const
const erc1155InterfaceId = 'd9b67a26'

/**
 * The standards of `contracts` (lowercase addresses). A contract that does not answer ERC-165 for ERC-1155
 * is taken as ERC-721 (ERC-1155 requires ERC-165; early ERC-721s predate it). Throws
 * {@link JsonRpc.RpcUnavailable} when the chain does not answer.
 */
export async function standards(
  rpc: JsonRpc.Client,
  contracts: readonly string[],
): Promise<Map<string, Contract.NftStandard>> {
  const answers = await rpc.batch(
    contracts.map((to) => call(to, `${selectors.supportsInterface}${erc1155InterfaceId.padEnd(64, '0')}`)),
  )
  return new Map(
    contracts.map((contract, i) => [contract, isTrue(answers[i]) ? 'erc1155' : 'erc721'] as const),
  )
}

/**
 * The metadata of `tokens`: a token whose URI call reverted, or whose URI is not a data: URI with JSON in it,
 * has empty metadata. Throws {@link JsonRpc.RpcUnavailable} when the chain does not answer.
 */
export async function read(rpc: JsonRpc.Client, tokens: readonly Token[]): Promise<(Token & Metadata)[]> {
  const answers = await rpc.batch(
    tokens.map(({ contract, tokenId, standard }) =>
      call(contract, `${standard === 'erc1155' ? selectors.uri : selectors.tokenURI}${word(tokenId)}`),
    ),
  )
  return tokens.map((token, i) => {
    const uri = text(answers[i])
    // ERC-1155: clients replace `{id}` with the id as 64 hex digits.
    return {
      ...token,
      ...fromUri(token.standard === 'erc1155' ? uri.replaceAll('{id}', word(token.tokenId)) : uri),
    }
  })
}

/**
 * The name and image a token URI holds, when it is a data: URI of JSON metadata (ERC-721/1155 metadata JSON:
 * `name`, `image`, or OpenSea's `image_data` SVG). Only `data:image/…` images are kept.
 * @example NftMetadata.fromUri('data:application/json,{"name":"Kitten"}') // { name: 'Kitten', imageUrl: '' }
 */
export function fromUri(uri: string): Metadata {
  const none = { name: '', imageUrl: '' }
  const header = /^data:application\/json(;[^,]*)?,/i.exec(uri)
  if (!header || uri.length > uriMax) return none
  const body = uri.slice(header[0].length)
  let json: unknown
  try {
    json = JSON.parse(
      /;base64$/i.test(header[1] ?? '') ? Buffer.from(body, 'base64').toString('utf8') : decode(body),
    )
  } catch {
    return none
  }
  if (!json || typeof json !== 'object') return none
  const { name, image, image_data: svg } = json as Record<string, unknown>
  return { name: clean(name), imageUrl: imageOf(image, svg) }
}

function imageOf(image: unknown, svg: unknown): string {
  if (typeof image === 'string' && /^data:image\/(png|gif|jpeg|webp|avif|svg\+xml)[;,]/i.test(image))
    return image.length <= nftImageMax ? image : ''
  if (typeof svg === 'string' && svg.trimStart().startsWith('<svg')) {
    const url = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`
    return url.length <= nftImageMax ? url : ''
  }
  return ''
}

/** Percent-decoding where the URI uses it; a raw URI (JSON written as is, `%` and all) stays as it is. */
function decode(body: string): string {
  try {
    return decodeURIComponent(body)
  } catch {
    return body
  }
}

/** A name to show: no control characters, at most 200 characters. */
function clean(value: unknown): string {
  if (typeof value !== 'string') return ''
  return [...value]
    .filter((char) => (char.codePointAt(0) ?? 0) > 0x1f && char !== '\u007f')
    .join('')
    .trim()
    .slice(0, 200)
}

/** Keeps what was read, so the next listing reads none of it again (until stale). */
export async function save(
  db: Pick<Database, 'query'>,
  chainId: string,
  found: { standards: Map<string, Contract.NftStandard>; metadata: readonly (Token & Metadata)[] },
  now: number,
): Promise<void> {
  for (const [contract, standard] of found.standards)
    await db.query('update history_assets set standard = $3 where chain_id = $1 and address = $2', [
      chainId,
      contract,
      standard,
    ])
  const rows = found.metadata
  if (rows.length === 0) return
  await db.query(
    `insert into history_nft_tokens (chain_id, contract, token_id, name, image_url, read_at)
     select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
     on conflict (chain_id, contract, token_id) do update
       set name = excluded.name, image_url = excluded.image_url, read_at = excluded.read_at`,
    [
      chainId,
      rows.map((row) => row.contract),
      rows.map((row) => row.tokenId),
      rows.map((row) => row.name),
      rows.map((row) => row.imageUrl),
      rows.map(() => now),
    ],
  )
}

function call(to: string, data: string): JsonRpc.Call {
  return ['eth_call', [{ to, data }, 'latest']]
}

/** A uint256 as 64 hex digits. */
function word(tokenId: string): string {
  return BigInt(tokenId).toString(16).padStart(64, '0')
}

function isTrue(answer: unknown): boolean {
  return typeof answer === 'string' && /^0x0{63}1$/.test(answer)
}

/** An ABI `string` answer; '' for a revert or anything else. */
function text(answer: unknown): string {
  if (typeof answer !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(answer) || answer.length < 130) return ''
  try {
    const [decoded] = decodeAbiParameters([{ type: 'string' }], answer as `0x${string}`)
    return decoded
  } catch {
    return ''
  }
}
