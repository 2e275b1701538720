/**
 * Where a passkey ceremony runs (ARCHITECTURE.md, "Passkeys"): in the modal's frame when its page delegated
 * `publickey-credentials-create` and `-get` to it (the host SDK's frame does, in its `allow`), or when the
 * modal is a window of its own; otherwise in the approval window of the modal origin, which the visitor's
 * click opens. Both are the modal origin, the relying party, so a passkey made in one works in the other.
 */
import * as Approval from '../../core/approval/PasskeyApproval.ts'
import * as Ceremony from '../../shared/webauthn/Ceremony.ts'

/** What the approval window shows, when the ceremony runs there. */
export type Texts = { title: string; question: string; action: string; cancel: string }

/** The ceremony was cancelled, refused or failed; `reason` is the browser's error name, if it gave one. */
export class PasskeyError extends Error {
  override name = 'PasskeyError'
  constructor(readonly reason: string) {
    super(`The passkey ceremony did not complete (${reason}).`)
  }
}

type Policy = { allowsFeature(feature: string): boolean }

/** Whether this document may run `kind`'s ceremony itself (Permissions Policy; Chromium tells, others do not). */
function here(kind: Ceremony.Request['kind'], self: Window = window): boolean {
  if (self.top === self) return true
  const policy = (self.document as Document & { featurePolicy?: Policy }).featurePolicy
  return (
    policy?.allowsFeature(kind === 'create' ? 'publickey-credentials-create' : 'publickey-credentials-get') ??
    false
  )
}

/**
 * Runs the ceremony `request` asks for, here or in the approval window. Call it synchronously inside the
 * visitor's click: the window opens only there, and the frame's ceremony needs that activation too.
 * @example const { response, prf } = await Passkey.ceremony('get', account.passkeyLoginOptions().then(…), texts)
 */
export async function ceremony(
  kind: Ceremony.Request['kind'],
  request: Promise<Ceremony.Request>,
  texts: Texts,
  self: Window = window,
): Promise<Ceremony.Result> {
  if (here(kind, self)) {
    try {
      return await Ceremony.run(await request, self.navigator.credentials)
    } catch (error) {
      if (error instanceof DOMException) throw new PasskeyError(error.name)
      throw error
    }
  }
  const done = await Approval.passkey(
    request.then((asked) => ({ ...texts, request: asked })),
    self,
  )
  // The options' own failure (the API) is the caller's to hear.
  await request
  if (done?.result) return { ...done.result, prf: done.result.prf } as Ceremony.Result
  throw new PasskeyError(done?.error ?? 'NotAllowedError')
}
