/**
 * The embedded wallet's calls to the Airlock API: email login, the session, and the wallet's shares. Apart
 * from the modal's `Api.Client` because only this connector's chunk needs them, and because these carry the
 * session's bearer token, which nothing else in the modal may see. Each call waits at most 30 s (docs/behaviour.md's
 * connect, one-time code and social requests) and is never repeated by itself: a code or a wallet is not
 * something to send twice.
 */
import * as Contract from '@airlock/api/contract'
import { Async, Errors } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { viewTexts } from './viewTexts.ts'

/** docs/behaviour.md §9: connect, device, one-time code and social requests wait 30 s at most. */
const timeoutMs = 30_000

/** The API refused (`status`, its own message), or could not be reached (`status` 0). */
export class AccountError extends Error {
  override name = 'AccountError'
  constructor(
    message: string,
    readonly status: number,
    /** Seconds the API asked to wait (`Retry-After`), when it did. */
    readonly retryAfter?: number | undefined,
  ) {
    super(message)
  }
}

export type Session = { token: string; user: User }

/**
 * Who logged in: an email login's user, a provider's (with its handle when it has one), or a Farcaster
 * account's, which has a fid and a name but no email.
 */
export type User = {
  id: string
  email?: string | undefined
  provider?: Contract.SocialProvider | 'farcaster' | undefined
  username?: string | undefined
  fid?: number | undefined
}

export type AccountOptions = {
  /** The API's URL of a path, with the project's query (`Api.Client.endpoint`). */
  endpoint(path: string): string
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /** The clock of the 30 s limit (the kernel's in the modal, a manual one in tests). @default the global timers */
  timers?: Async.Timers | undefined
}

export type Account = ReturnType<typeof create>

/**
 * @example
 * const account = Account.create({ endpoint: api.endpoint })
 * await account.sendCode('ada@example.com')
 */
export function create(options: AccountOptions) {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  const timers = options.timers ?? Async.realTimers

  async function call<T>(
    path: string,
    shape: S.Shape<T>,
    init: { body?: unknown; token?: string | undefined } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {}
    if (init.body !== undefined) headers['Content-Type'] = 'application/json'
    if (init.token) headers.Authorization = `Bearer ${init.token}`
    const controller = new AbortController()
    let timedOut = false
    const timer = timers.setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    let response: Response
    let text: string
    try {
      response = await fetcher(options.endpoint(path), {
        method: init.body === undefined ? 'GET' : 'POST',
        headers,
        credentials: 'omit',
        cache: 'no-store',
        signal: controller.signal,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      })
      // Read under the same limit: an API may send its headers and then stall.
      text = await response.text()
    } catch {
      throw new AccountError(timedOut ? texts.timeout : texts.unreachable, 0)
    } finally {
      timers.clearTimeout(timer)
    }
    const answer = jsonOf(text)
    if (!response.ok) {
      const wait = Number(response.headers.get('Retry-After'))
      throw new AccountError(
        Errors.messageOf(answer, `HTTP status code: ${response.status}`),
        response.status,
        Number.isFinite(wait) && wait > 0 ? wait : undefined,
      )
    }
    const parsed = S.parse(shape, answer)
    if (!parsed.ok) throw new AccountError(texts.unexpected, response.status)
    return parsed.value
  }

  return {
    /** Mails a one-time code; resolves with the seconds before another may be asked for. */
    async sendCode(email: string): Promise<number> {
      return (await call('/v1/auth/email', Contract.emailCodeAnswer, { body: { email } })).retryAfter
    },
    /** Trades the code for a session. */
    verifyCode: (email: string, code: string): Promise<Session> =>
      call('/v1/auth/email/verify', Contract.emailSessionAnswer, { body: { email, code } }),
    /** The session's user: fails with 401 once the session has ended. */
    async me(token: string): Promise<User> {
      return (await call('/v1/auth/me', Contract.emailUserAnswer, { token })).user
    },
    async logout(token: string): Promise<void> {
      await call('/v1/auth/logout', Contract.logoutAnswer, { body: {}, token })
    },
    /** The user's wallet (auth share in clear, recovery copies sealed), or undefined before it has one. */
    async wallet(token: string): Promise<Contract.StoredWallet | undefined> {
      try {
        return await call('/v1/wallet', Contract.storedWallet, { token })
      } catch (error) {
        if (error instanceof AccountError && error.status === 404 && error.message === Contract.noWallet)
          return undefined
        throw error
      }
    },
    /**
     * Changing the email (docs/behaviour.md §4: the current address's code, then the new one's): `start` mails a code to the
     * current address, `verify` takes it and mails one to the new, `confirm` takes that and moves the user.
     */
    changeEmail: {
      start: async (token: string, email: string) =>
        (await call('/v1/auth/email/change', Contract.emailCodeAnswer, { body: { email }, token }))
          .retryAfter,
      verify: async (token: string, code: string) =>
        (await call('/v1/auth/email/change/verify', Contract.emailCodeAnswer, { body: { code }, token }))
          .retryAfter,
      confirm: async (token: string, code: string): Promise<User> =>
        (await call('/v1/auth/email/change/confirm', Contract.emailUserAnswer, { body: { code }, token }))
          .user,
    },
    /** The social providers this deployment has configured, in the product's order (docs/behaviour.md §1), and whether Farcaster is on. */
    socialProviders: () => call('/v1/auth/social', Contract.socialProvidersAnswer),
    /**
     * Sign In With Farcaster: `channel` opens one (its URL is what the visitor's Farcaster app opens), and
     * `status` answers `pending` until the visitor approved there, then the session.
     */
    farcaster: {
      channel: (binding: string) =>
        call('/v1/auth/farcaster/channel', Contract.farcasterChannelAnswer, { body: { binding } }),
      async status(channelToken: string, binding: string): Promise<Session | 'pending'> {
        const answer = await call(
          '/v1/auth/farcaster/status',
          S.union(Contract.farcasterPendingAnswer, Contract.farcasterSessionAnswer),
          { body: { channelToken, binding } },
        )
        return 'state' in answer ? 'pending' : answer
      },
    },
    storeWallet: (token: string, wallet: Contract.WalletBody): Promise<Contract.WalletAnswer> =>
      call('/v1/wallet', Contract.walletAnswer, { body: wallet, token }),
    /** Another sealed copy of the recovery share (a passkey's), or the password's dropped: signed changes. */
    recovery: {
      add: (token: string, body: Contract.WalletRecoveryBody) =>
        call('/v1/wallet/recovery', Contract.walletRecoveriesAnswer, { body, token }),
      dropPassword: (token: string, body: Contract.WalletDropBody) =>
        call('/v1/wallet/recovery/drop', Contract.walletRecoveriesAnswer, { body, token }),
    },
    /**
     * Passkeys: `registerOptions` and `register` add one to the session's user; `loginOptions` and `login`
     * open a session with one. The answers sent carry no extension output (`Ceremony.ts`).
     */
    passkey: {
      registerOptions: async (token: string) =>
        (await call('/v1/auth/passkey/register/options', Contract.passkeyCreationAnswer, { body: {}, token }))
          .options,
      register: async (token: string, response: Contract.RegistrationResponse) =>
        (
          await call('/v1/auth/passkey/register', Contract.passkeyRegisterAnswer, {
            body: { response },
            token,
          })
        ).credentialId,
      loginOptions: async () =>
        (await call('/v1/auth/passkey/login/options', Contract.passkeyRequestAnswer, { body: {} })).options,
      login: (response: Contract.AuthenticationResponse): Promise<Session> =>
        call('/v1/auth/passkey/login', Contract.passkeySessionAnswer, { body: { response } }),
    },
  }
}

const texts = viewTexts.account

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
