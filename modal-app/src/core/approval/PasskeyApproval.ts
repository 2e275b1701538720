import { talk } from './Approval.ts'
import { type Passkey, type PasskeyDone, passkeyDone } from './passkeyProtocol.ts'

/**
 * Has the window run a passkey ceremony in the visitor's click there, for a frame whose page did not let it
 * run one, and resolves with its outcome; `undefined` when the window closed first or `request` failed. Call
 * it synchronously inside the click; `request` may still be on its way (the API's options).
 */
export async function passkey(
  request: Promise<Omit<Passkey, 'type'>>,
  self: Window = window,
): Promise<PasskeyDone | undefined> {
  const said = request.then((asked) => ({ type: 'airlock:passkey', ...asked }) satisfies Passkey)
  // Its failure is the caller's to report; here it only closes the window (below).
  said.catch(() => {})
  return talk(self, said, passkeyDone)
}
