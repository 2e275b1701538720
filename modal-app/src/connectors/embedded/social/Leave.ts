/**
 * A social login that leaves the page and comes back to it: a Telegram mini-app's, where Telegram's view opens
 * no window beside the page (docs/behaviour.md §2). The modal keeps the login's binding in its own storage
 * (`Secrets.left`, never the host page's), asks the host to go to the API's start (`leaveFor`; the frame's
 * sandbox may not navigate the page), and the API's callback sends the visitor back to the page with
 * `?result_uri=<handoff>`, which the host takes out of the address and hands over once (`socialResult`).
 *
 * What the page sees, the handoff, opens nothing without the binding; the binding is the modal's alone, used
 * once (taken out as it is read) and for 10 minutes, the API's state's lifetime. A result the page shows
 * while no login of this modal left is not asked for, and one it forged or replays the API refuses
 * (401 `Invalid handoff`). Where the API sends the visitor back is its check: an origin on the project's
 * list (`api/src/features/auth/social.ts`).
 */
import type * as Contract from '@airlock/api/contract'
import type { Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Left } from '../Secrets.ts'
import { drawBinding, exchange, type LoginOptions, SocialLoginError } from '../Social.ts'
import { failures } from './protocol.ts'

/** What a login that leaves needs of the host's bridge. */
type Host = Pick<Schema.Remote<Schema.HostApiContract>, 'leaveFor' | 'socialResult'>

/** Where the binding is kept (`Secrets`): the modal origin's storage, never the host page's. */
export type Keeper = {
  ready(): Promise<unknown>
  lasting(): boolean
  left(): Left | undefined
  keepLeft(value: Left | undefined): void
  written(): Promise<void>
}

export type LeaveOptions = Pick<LoginOptions, 'endpoint' | 'fetch' | 'timers'> & {
  host: () => Host | undefined
  secrets: Keeper
  now: () => number
  /**
   * The browser's answer to the storage asked for in this click (`FrameStorage.request`): a frame without
   * storage of its own may be granted some, which the binding can then be kept in.
   */
  storage?: () => Promise<void>
}

/** The API's state lives this long (`States.ts`): a binding kept longer could finish nothing. */
const leftTtlMs = 10 * 60_000

/** The result of a login's return: a handoff, or one of the failures the API names. */
const result = S.union(S.string(43, 43, /^[A-Za-z0-9_-]{43}$/), S.picklist(failures))

/**
 * Leaves the page for `provider`'s login; resolves as the page goes (nothing more happens on it), or fails
 * with a {@link SocialLoginError} where it cannot. Call it in the click: the host goes only within one.
 * @example await Leave.leave('github', { endpoint, host: kernel.host, secrets, now: Date.now })
 */
export async function leave(provider: Contract.SocialProvider, options: LeaveOptions): Promise<void> {
  const { secrets } = options
  await options.storage?.()
  // Memory alone would be gone when the visitor comes back; the host page's storage is no place for a secret.
  if (!secrets.lasting()) throw new SocialLoginError('unkept')
  const host = options.host()
  if (!host) throw new SocialLoginError('unavailable')
  const binding = drawBinding()
  const start = new URL(options.endpoint(`/v1/auth/social/${provider}/start`))
  start.searchParams.set('binding', binding)
  secrets.keepLeft({ provider, binding, at: options.now() })
  await secrets.written()
  try {
    await host.leaveFor({ url: start.href })
  } catch (error) {
    secrets.keepLeft(undefined)
    throw new SocialLoginError('stayed', { cause: error })
  }
}

/**
 * The login that left this page, come back: its provider and its session (or why there is none). Undefined
 * when no login of this modal left, or the visitor came back without a result. Asks the host once, and
 * forgets the binding whatever comes of it.
 * @example const back = await Leave.resume(options); if (back) show(back.provider, back.session)
 */
export async function resume(
  options: LeaveOptions,
): Promise<
  { provider: Contract.SocialProvider; session: Promise<Contract.SocialSessionAnswer> } | undefined
> {
  const { secrets } = options
  await secrets.ready()
  const kept = secrets.left()
  if (!kept) return undefined
  secrets.keepLeft(undefined)
  if (options.now() - kept.at >= leftTtlMs) return undefined
  const said = await options
    .host()
    ?.socialResult()
    .catch(() => undefined)
  if (said === undefined) return undefined
  return { provider: kept.provider, session: finish(said, kept.binding, options) }
}

async function finish(said: string, binding: string, options: LeaveOptions) {
  const parsed = S.parse(result, said)
  if (!parsed.ok) throw new SocialLoginError('rejected', { details: `Unreadable result: ${parsed.message}` })
  const word = parsed.value
  if ((failures as readonly string[]).includes(word))
    throw new SocialLoginError(word as Contract.SocialFailure)
  return exchange({ handoff: word, binding }, options)
}
