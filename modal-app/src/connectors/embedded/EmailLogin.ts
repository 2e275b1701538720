/**
 * The email login (docs/behaviour.md §4: verify the one-time code, then connect): the address, the product's 30 s throttle (docs/behaviour.md §5) said
 * before the API has to (§5), and the code view's state, until the code is traded for a session that the
 * runtime opens the wallet with.
 */
import * as Contract from '@airlock/api/contract'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Kernel } from '../../core/Feature.ts'
import * as Account from './Account.ts'
import { embeddedTexts } from './texts.ts'
import { codeView } from './views.ts'
import { viewTexts as texts } from './viewTexts.ts'

export type EmailLoginOptions = {
  kernel: Pick<Kernel, 'router' | 'changed' | 'shake' | 'now'>
  account: Account.Account
  /** The code was right: the runtime opens the wallet, and says through `failed` when it cannot. */
  loggedIn(session: Account.Session): Promise<void>
}

/**
 * @example
 * const email = EmailLogin.create({ kernel, account, loggedIn })
 * email.send('ada@example.com')
 */
export function create({ kernel, account, loggedIn }: EmailLoginOptions) {
  let email = { sending: false, error: undefined as string | undefined, address: '', retryAt: 0 }
  let code = {
    verifying: false,
    error: undefined as string | undefined,
    notice: undefined as string | undefined,
  }
  const changed = () => kernel.changed()
  const messageOf = (error: unknown) =>
    error instanceof Account.AccountError ? error.message : embeddedTexts.unavailable

  function send(address: string, resend: boolean) {
    const parsed = S.parse(Contract.emailAddress, address)
    if (!parsed.ok) {
      email = { ...email, error: Contract.invalidEmail }
      return changed()
    }
    const wait = Math.ceil((email.retryAt - kernel.now()) / 1000)
    // The product's 30 s cooldown (docs/behaviour.md §5), said before the API has to: the API holds the same line.
    if (parsed.value === email.address && wait > 0) {
      const error = `Please try again after ${wait} seconds`
      if (resend) code = { ...code, error, notice: undefined }
      else email = { ...email, error }
      return changed()
    }
    email = { ...email, sending: true, error: undefined }
    changed()
    account.sendCode(parsed.value).then(
      (seconds) => {
        email = {
          sending: false,
          error: undefined,
          address: parsed.value,
          retryAt: kernel.now() + seconds * 1000,
        }
        code = { verifying: false, error: undefined, notice: resend ? texts.code.resent : undefined }
        if (!resend)
          kernel.router.send({ type: kernel.router.view() === codeView ? 'REPLACE' : 'PUSH', view: codeView })
        changed()
      },
      (error: unknown) => {
        if (error instanceof Account.AccountError && error.retryAfter)
          email.retryAt = kernel.now() + error.retryAfter * 1000
        email = { ...email, sending: false, error: resend ? undefined : messageOf(error) }
        if (resend) code = { ...code, error: messageOf(error), notice: undefined }
        changed()
      },
    )
  }

  /** The code view says `message`: a refused code, or a wallet the login could not open. */
  function failed(message: string) {
    code = { ...code, verifying: false, error: message }
    kernel.shake()
  }

  return {
    /** What Connect's email row and the code view show. */
    slice: () => ({
      email: { sending: email.sending, error: email.error },
      code: { ...code, email: email.address, retryAt: email.retryAt },
    }),
    send: (address: string) => send(address.trim(), false),
    resend: () => send(email.address, true),
    async verify(value: string) {
      if (code.verifying) return
      const parsed = S.parse(Contract.oneTimeCode, value)
      if (!parsed.ok) {
        code = { ...code, error: Contract.invalidCode }
        return changed()
      }
      code = { verifying: true, error: undefined, notice: undefined }
      changed()
      let session: Account.Session
      try {
        session = await account.verifyCode(email.address, parsed.value)
      } catch (error) {
        failed(messageOf(error))
        return changed()
      }
      code = { ...code, verifying: false }
      await loggedIn({ token: session.token, user: session.user })
    },
    failed,
  }
}
