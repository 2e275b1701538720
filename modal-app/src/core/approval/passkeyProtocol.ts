/**
 * The approval window's passkey ceremony, on the channel of `protocol.ts` (apart from it, so the modal's first
 * chunk, which asks the window its questions, carries none of these shapes).
 */
import * as Contract from '@airlock/api/contract'
import * as S from '@airlock/bridge-protocol/Shape'

const ceremony = S.variant('kind', {
  create: S.object({ kind: S.literal('create'), options: Contract.passkeyCreationOptions }),
  get: S.object({ kind: S.literal('get'), options: Contract.passkeyRequestOptions }),
})

/**
 * A passkey ceremony the frame may not run itself (its page did not delegate `publickey-credentials-*` to it):
 * the window shows the frame's texts and runs it in the visitor's click there, as a first-party page of the
 * same origin, the relying party's.
 */
export const passkey = S.object({
  type: S.literal('airlock:passkey'),
  title: S.string(200, 1),
  question: S.string(300, 1),
  action: S.string(100, 1),
  cancel: S.string(100, 1),
  request: ceremony,
})
export type Passkey = S.Infer<typeof passkey>

/**
 * The ceremony's outcome: the authenticator's answer and its PRF output (32 bytes, which stays on this
 * origin: the port joins two documents of it), or the name of the browser's error (`NotAllowedError` for a
 * prompt cancelled), or neither when the visitor cancelled in the window.
 */
export const passkeyDone = S.object({
  type: S.literal('airlock:passkey-done'),
  result: S.optional(
    S.variant('kind', {
      create: S.object({
        kind: S.literal('create'),
        response: Contract.registrationResponse,
        prf: S.optional(S.bytes(32)),
      }),
      get: S.object({
        kind: S.literal('get'),
        response: Contract.authenticationResponse,
        prf: S.optional(S.bytes(32)),
      }),
    }),
  ),
  error: S.optional(S.string(100, 1)),
})
export type PasskeyDone = S.Infer<typeof passkeyDone>
