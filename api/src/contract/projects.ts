/**
 * A project's allowed origins: `GET /projects/v1/origins`. The modal refuses a handshake from any other.
 */
import * as S from '@airlock/bridge-protocol/Shape'

export const originsAnswer = S.object({ allowedOrigins: S.array(S.string(256), 1000) })
export type OriginsAnswer = S.Infer<typeof originsAnswer>
