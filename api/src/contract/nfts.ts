/**
 * NFTs an account holds: `GET /v1/account/{address}/nfts`. One entry per token (contract and id) of which the
 * account holds a positive amount on the chain asked about, by contract then token id; `next` is the cursor
 * of the following page, `null` on the last.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { chainId } from './balances.ts'
import { projectId, sdkField } from './common.ts'

/** A page's cursor as the API hands it out: opaque, URL-safe. */
const cursor = S.string(200, 1, /^[A-Za-z0-9_-]+$/)

/** `chainId` is required: an account's NFTs are listed one chain at a time, as its balances are. */
export const nftsQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  chainId,
  cursor: S.optional(cursor),
})
export type NftsQuery = S.Infer<typeof nftsQuery>

export const nftStandards = ['erc721', 'erc1155'] as const
export type NftStandard = (typeof nftStandards)[number]

/** The longest `imageUrl`: a data: image (the only kind served) bigger than this is left out. */
export const nftImageMax = 32_768

const decimal = S.string(80, 1, /^\d+$/)

export const nft = S.object({
  /** CAIP-2. */
  chainId: S.string(80, 1),
  /** The collection's contract, CAIP-10. */
  contract: S.string(200, 1),
  tokenId: decimal,
  standard: S.picklist(nftStandards),
  /** How many the account holds: 1 for an ERC-721 token. */
  amount: decimal,
  /** The token's own name (its metadata's), else the collection's name and the token id. */
  name: S.optional(S.string(300)),
  /** The collection's symbol, as its contract says. */
  symbol: S.optional(S.string(40)),
  /** The collection's name, as its contract says. */
  collection: S.optional(S.string(200)),
  /**
   * The token's image as a `data:image/…` URI, when its metadata is a data: URI that has one. Never a URL
   * to fetch: the API follows no token URI, and hands out none for a browser to load.
   */
  imageUrl: S.optional(S.string(nftImageMax, 1)),
  /** The collection is spam (it advertises, or an operator said so): a client hides it by default. */
  spam: S.boolean,
})
export type Nft = S.Infer<typeof nft>

export const nftsAnswer = S.object({ data: S.array(nft, 100), next: S.nullable(cursor) })
export type NftsAnswer = S.Infer<typeof nftsAnswer>
