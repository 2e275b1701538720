/**
 * Social login, the modal frame's side (docs/behaviour.md §1, §9). In the visitor's click the frame opens a window on the
 * API's `start`, which sends it to the provider and, once the visitor has signed in there, back to this
 * origin's `social.html`. That page hands the frame a one-time handoff code (`social/page.ts`), and the frame
 * trades it, with the binding only it holds, for a session (`POST /v1/auth/social/exchange`). The server's
 * side, and why the binding, is `api/src/features/auth/social.ts`.
 *
 * A window, not the frame: providers refuse to be framed, and a top-level window shows the visitor the
 * provider's real address. The session token never travels in a URL; the handoff does, in a fragment no
 * server receives, and is worth nothing without the binding.
 */
import * as Contract from '@airlock/api/contract'
import { Async } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import * as base64 from '../../shared/encoding/base64.ts'
import * as Protocol from './social/protocol.ts'

export type LoginOptions = {
  /** The API URL of a path, with the project's query (`projectId`, `st`, `sv`) on it: `Api.Client['endpoint']`. */
  endpoint(path: string): string
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
  /** The modal frame's window, which opens the login window and hears from it. @default window */
  self?: Window | undefined
  /** The clock of the exchange's 30 s limit (docs/behaviour.md §9: social requests). @default the global timers */
  timers?: Async.Timers | undefined
  /** Abandons the login (the modal closed): the window closes and the login fails with `cancelled`. */
  signal?: AbortSignal | undefined
}

/**
 * Why a social login ended without a session: the window was `blocked` or `closed`; the provider's side
 * failed (`Contract.SocialFailure`); the exchange took too long (`timeout`), was refused (`rejected`: an
 * expired or spent handoff, the API's words in `details`) or could not be made (`unavailable`); or the
 * modal gave it up (`cancelled`). A login that leaves the page (`social/Leave.ts`) also fails where the modal
 * could keep nothing to finish it with on the way back (`unkept`), or the page would not go (`stayed`).
 */
export type Reason =
  | 'blocked'
  | 'closed'
  | Contract.SocialFailure
  | 'timeout'
  | 'rejected'
  | 'unavailable'
  | 'cancelled'
  | 'unkept'
  | 'stayed'

const messages: Record<Reason, string> = {
  blocked: 'The sign-in window was blocked. Allow pop-ups for this site and try again.',
  closed: 'The sign-in window was closed before the sign-in finished.',
  access_denied: 'The sign-in was declined at the provider.',
  provider_error: 'The provider could not complete the sign-in. Try again in a moment.',
  email_not_verified:
    'The provider did not confirm an email address for this account. Verify your email there, or sign in another way.',
  timeout: 'The sign-in took too long to finish. Try again.',
  rejected: 'The sign-in could not be completed. Try again.',
  unavailable: 'The sign-in service cannot be reached. Check your connection and try again.',
  cancelled: 'The sign-in was cancelled.',
  unkept: 'This browser keeps nothing for the sign-in while it leaves the app. Sign in another way.',
  stayed: 'This app could not open the sign-in page. Sign in another way.',
}

export class SocialLoginError extends Error {
  override name = 'SocialLoginError'
  /** The API's own text, when it refused the exchange or answered something unexpected. */
  readonly details: string | undefined

  constructor(
    readonly reason: Reason,
    options: { details?: string; cause?: unknown } = {},
  ) {
    super(messages[reason], options.cause === undefined ? undefined : { cause: options.cause })
    this.details = options.details
  }
}

/** How often the window is looked at, in case the visitor closed it. */
const closedPollMs = 300
/** docs/behaviour.md §9: a social request waits 30 s at most. */
const exchangeTimeoutMs = 30_000
/** Every exchange refusal is `{ message }` (`api/src/http/errors.ts`). */
const refusal = S.object({ message: S.string(500, 1) })

/**
 * Logs in with `provider` and resolves with the API's session, or fails with a {@link SocialLoginError}. Call
 * it synchronously inside the click: browsers open windows only then.
 * @example
 * button.onclick = () => Social.login('github', { endpoint: api.endpoint }).then(open, show)
 */
export async function login(
  provider: Contract.SocialProvider,
  options: LoginOptions,
): Promise<Contract.SocialSessionAnswer> {
  const { signal } = options
  const self = options.self ?? window
  if (signal?.aborted) throw new SocialLoginError('cancelled')
  // Everything before the first `await` runs inside the click, where the browser allows `open`.
  const binding = drawBinding()
  const start = new URL(options.endpoint(`/v1/auth/social/${provider}/start`))
  start.searchParams.set('binding', binding)
  const popup = self.open(start.href, '_blank', 'popup,width=480,height=640')
  if (!popup) throw new SocialLoginError('blocked')
  const handoff = await landing(self, popup, signal)
  return exchange({ handoff, binding }, options)
}

/**
 * The binding of one login (`Contract.socialBinding`; Sign In With Farcaster's too): 32 random bytes,
 * base64url. Kept in the caller's closure only: nothing stored, so no other page or later visitor of this
 * browser can show it.
 */
export function drawBinding(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return base64.encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Waits for the window's one message and resolves with its handoff, or fails with the provider's reason,
 * when the window closes without one, or when the login is abandoned. The window is closed either way.
 */
function landing(self: Window, popup: Window, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    let closedBefore = false
    const end = () => {
      self.removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      clearInterval(poll)
      if (!popup.closed) popup.close()
    }
    const fail = (reason: Reason) => {
      end()
      reject(new SocialLoginError(reason))
    }
    const onMessage = (event: MessageEvent) => {
      // Only the window this login opened, showing a page of this very origin: anyone may post here.
      if (event.source !== popup || event.origin !== self.location.origin) return
      const parsed = S.parse(Protocol.message, event.data)
      if (!parsed.ok) return
      if ('error' in parsed.value) return fail(parsed.value.error)
      end()
      resolve(parsed.value.handoff)
    }
    const onAbort = () => fail('cancelled')
    const poll = setInterval(() => {
      if (!popup.closed) return
      // The page posts, then closes itself: its message may still be queued when the close shows, so a
      // window counts as closed without answering only at the next look.
      if (closedBefore) fail('closed')
      closedBefore = true
    }, closedPollMs)
    self.addEventListener('message', onMessage)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Trades the handoff, with the binding the start was given, for a session. */
export async function exchange(
  body: Contract.SocialExchangeBody,
  options: LoginOptions,
): Promise<Contract.SocialSessionAnswer> {
  const { signal } = options
  if (signal?.aborted) throw new SocialLoginError('cancelled')
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  const timers = options.timers ?? Async.realTimers
  const controller = new AbortController()
  let timedOut = false
  const timer = timers.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, exchangeTimeoutMs)
  const onAbort = () => controller.abort()
  signal?.addEventListener('abort', onAbort, { once: true })
  let status: number
  let text: string
  try {
    const response = await fetcher(options.endpoint('/v1/auth/social/exchange'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      // The API reads no cookies, and none of the visitor's may ride along with a login.
      credentials: 'omit',
      signal: controller.signal,
    })
    status = response.status
    // Read under the same time-out: an API may send its headers and then stall.
    text = await response.text()
  } catch (error) {
    const reason = signal?.aborted ? 'cancelled' : timedOut ? 'timeout' : 'unavailable'
    throw new SocialLoginError(reason, { cause: error })
  } finally {
    timers.clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
  return sessionOf(status, text)
}

/** The session an exchange answered, parsed with the API's contract, or why there is none. */
function sessionOf(status: number, text: string): Contract.SocialSessionAnswer {
  const body = jsonOf(text)
  if (status >= 400 && status < 500) {
    const said = S.parse(refusal, body)
    throw new SocialLoginError('rejected', { details: said.ok ? said.value.message : `HTTP ${status}` })
  }
  if (status < 200 || status >= 300) throw new SocialLoginError('unavailable', { details: `HTTP ${status}` })
  const parsed = S.parse(Contract.socialSessionAnswer, body)
  if (!parsed.ok)
    throw new SocialLoginError('unavailable', { details: `Unexpected answer: ${parsed.message}` })
  return parsed.value
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
