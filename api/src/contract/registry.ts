/**
 * The wallet registry: `GET /getWallets`. Its entries also carry `homepage`, `badge_type` and `order`,
 * which the modal does not read, so parsing an answer drops them.
 */
import * as Caip from '@airlock/bridge-protocol/Caip'
import * as S from '@airlock/bridge-protocol/Shape'
import { integer, list, projectId, sdkField } from './common.ts'

const registryId = /^[A-Za-z0-9_-]{1,80}$/

export const walletsQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  page: S.optional(integer(1, 10_000)),
  entries: S.optional(integer(1, 100)),
  include: S.optional(list(registryId, 500)),
  exclude: S.optional(list(registryId, 500)),
  chains: S.optional(
    S.check(list(/^.+$/, 64), (value) => value.split(',').every(Caip.isChainId), Caip.invalidChainId),
  ),
  search: S.optional(S.string(100)),
  badge_type: S.optional(S.picklist(['none', 'certified'])),
})
export type WalletsQuery = S.Infer<typeof walletsQuery>

/** A wallet listing entry. */
export const listing = S.object({
  id: S.string(80, 1),
  name: S.string(100, 1),
  image_id: S.string(80, 1, /^[\w-]+$/),
  rdns: S.optional(S.nullable(S.string(128))),
  chains: S.array(S.string(80), 200),
  mobile_link: S.optional(S.nullable(S.string(2048))),
  desktop_link: S.optional(S.nullable(S.string(2048))),
  webapp_link: S.optional(S.nullable(S.string(2048))),
})
export type Listing = S.Infer<typeof listing>

/** A page of the registry: its wallets and how many match in all. */
export const walletsAnswer = S.object({ count: S.number(0, 1e9), data: S.array(listing, 100) })
export type WalletsAnswer = S.Infer<typeof walletsAnswer>
