/**
 * The social login as the embedded wallet's runtime drives it: which way it goes (a window beside the page,
 * `../Social.ts`, or, in a Telegram mini-app, leaving the page and coming back, `Leave.ts`), and what
 * ConnectingSocial shows meanwhile: the provider, and why it failed.
 */
import * as Contract from '@airlock/api/contract'
import { Errors } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Kernel } from '../../../core/Feature.ts'
import * as FrameStorage from '../../../core/FrameStorage.ts'
import type { Session } from '../Account.ts'
import * as Social from '../Social.ts'
import * as Leave from './Leave.ts'

export type FlowOptions = {
  kernel: Kernel
  endpoint: (path: string) => string
  secrets: Leave.Keeper
  /** The login opened a session: the runtime opens the wallet behind it. */
  loggedIn(session: Session): void
  /** Why it failed, for the connect events. */
  failed(message: string): void
  /** Text for a failure that says nothing of its own. */
  fallback: string
  /** The view that shows the login under way. */
  view: string
  /** Goes to a view from where the visitor is. */
  go(view: string): void
}

type Slice = { provider: string; error?: string | undefined }

/**
 * @example
 * const social = Flow.create({ kernel, endpoint, secrets, loggedIn, failed, fallback, view: socialView })
 * button.onclick = () => social.login('github')
 */
export function create(options: FlowOptions) {
  const { kernel } = options
  let social: Slice | undefined
  /** Ends the social login under way when the modal closes, so a late popup opens nothing. */
  let abort: AbortController | undefined
  const leaving = {
    ...options,
    host: kernel.host,
    now: kernel.now,
    timers: kernel.timers,
    storage: FrameStorage.request,
  }

  const follow = (provider: string, login: Promise<Session>) => {
    social = { provider }
    kernel.changed()
    login.then(options.loggedIn, (error: unknown) => {
      if (error instanceof Social.SocialLoginError && error.reason === 'cancelled') return
      social = { provider, error: Errors.messageOf(error, options.fallback) }
      options.failed(social.error as string)
      kernel.changed()
    })
  }

  return {
    slice: () => social,
    /** Begins a login; in the click, as the window opens, or the page leaves, only then. */
    login(provider: string) {
      const parsed = S.parse(Contract.socialProvider, provider)
      if (!parsed.ok) return
      abort?.abort()
      abort = new AbortController()
      const login = kernel.config.telegram
        ? // The page goes: nothing more happens on it.
          Leave.leave(parsed.value, leaving).then(() => new Promise<never>(() => {}))
        : Social.login(parsed.value, { ...leaving, signal: abort.signal })
      follow(parsed.value, login)
      const to = options.view
      kernel.router.send(
        kernel.router.view() === to ? { type: 'REPLACE', view: to } : { type: 'PUSH', view: to },
      )
    },
    /** Finishes a login that left the page, if this page load came back from one. */
    async resume() {
      const back = await Leave.resume(leaving)
      if (!back) return
      follow(back.provider, back.session)
      kernel.router.send({ type: 'OPEN', view: options.view })
    },
    /** Shows a failure after the login (opening the wallet) on the login's view. */
    failed(message: string) {
      if (social) social = { ...social, error: message }
    },
    stop() {
      abort?.abort()
      social = undefined
    },
  }
}
