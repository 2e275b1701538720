/**
 * Names and avatars: `GET /v1/identity/{address}`, for EVM addresses only.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/** The longest avatar the contract carries: a `data:image/…` URI bigger than this is no avatar to show. */
export const avatarMax = 32_768

/**
 * The address's name and avatar (an image URL or a `data:image/…` URI), each `null` when it has none. A
 * client decides which avatars it loads: the API does not fetch or check them.
 */
export const identityAnswer = S.object({
  name: S.nullable(S.string(255)),
  avatar: S.nullable(S.string(avatarMax)),
})
export type IdentityAnswer = S.Infer<typeof identityAnswer>
