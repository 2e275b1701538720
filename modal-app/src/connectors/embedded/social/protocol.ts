/**
 * The one message of the social login window (`social.html`, `page.ts`) to the modal frame that opened it
 * (`../Social.ts`): the handoff code the API's callback put in the window's fragment, or why there is none.
 * Both ends are this origin's code; the frame parses what it receives with {@link message}.
 */
import * as S from '@airlock/bridge-protocol/Shape'

/**
 * The API's `Contract.socialFailures`, written out so the window's page carries no API contract (a test
 * keeps the two lists equal).
 */
export const failures = ['access_denied', 'provider_error', 'email_not_verified'] as const

const type = S.literal('airlock:social')

/** A handoff is 32 bytes, base64url: the API's `Contract.socialExchangeBody.handoff`. */
const handoff = S.string(43, 43, /^[A-Za-z0-9_-]{43}$/)

/** `{ type: 'airlock:social', handoff }` or `{ type: 'airlock:social', error }`. */
export const message = S.union(S.object({ type, handoff }), S.object({ type, error: S.picklist(failures) }))
export type Message = S.Infer<typeof message>
