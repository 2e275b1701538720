/**
 * Sign In With Farcaster in the modal (the ConnectingFarcaster view): the API opens a channel at the Farcaster
 * relay, the view shows its link as a QR code and a link, and the modal asks the API every 1.5 s until the
 * visitor approved in their Farcaster app; the API checks the signed message and the fid's owner before it
 * opens a session. The channel is bound to a random value this frame keeps, as a social login's is.
 */
import { Errors } from '@airlock/bridge-protocol'
import type { Kernel } from '../../core/Feature.ts'
import type { Account, Session } from './Account.ts'
import { drawBinding } from './Social.ts'
import { farcasterView } from './views.ts'
import { viewTexts as texts } from './viewTexts.ts'

/** How often the API is asked; the relay's channels live 5 minutes, so asking stops then. */
const pollMs = 1_500
const channelMs = 5 * 60_000
/**
 * docs/behaviour.md §2: after a Back from the view with no login made, the logins reload this long after,
 * once the view the visitor went back to has drawn, so a reload that changes the rows never lands on the
 * view being left.
 */
const reloadAfterBackMs = 100

type State = { url?: string | undefined; error?: string | undefined }

export type FarcasterOptions = {
  kernel: Pick<Kernel, 'router' | 'changed' | 'timers' | 'now'>
  account: Account
  /** The visitor approved: the runtime opens the wallet. */
  loggedIn(session: Session): void
}

export function create({ kernel, account, loggedIn }: FarcasterOptions) {
  let state: State | undefined
  /** Each sign-in's number: a late answer to an abandoned one changes nothing. */
  let attempt = 0
  let timer: unknown
  let reloading: unknown

  const stop = () => {
    attempt++
    kernel.timers.clearTimeout(timer)
    kernel.timers.clearTimeout(reloading)
  }
  const show = (next: State) => {
    state = next
    kernel.changed()
  }

  async function begin() {
    stop()
    const mine = attempt
    const binding = drawBinding()
    show({})
    if (kernel.router.view() !== farcasterView) kernel.router.send({ type: 'PUSH', view: farcasterView })
    try {
      const { channelToken, url } = await account.farcaster.channel(binding)
      if (mine !== attempt) return
      show({ url })
      const until = kernel.now() + channelMs
      const ask = async () => {
        if (mine !== attempt) return
        if (kernel.now() > until) return show({ url, error: texts.farcaster.expired })
        try {
          const answer = await account.farcaster.status(channelToken, binding)
          if (mine !== attempt) return
          if (answer === 'pending') timer = kernel.timers.setTimeout(() => void ask(), pollMs)
          else {
            stop()
            loggedIn(answer)
          }
        } catch (error) {
          if (mine === attempt) show({ url, error: Errors.messageOf(error, texts.initFailed) })
        }
      }
      timer = kernel.timers.setTimeout(() => void ask(), pollMs)
    } catch (error) {
      if (mine === attempt) show({ error: Errors.messageOf(error, texts.initFailed) })
    }
  }

  return {
    slice: () => state,
    begin,
    /** The sign-in went through but opened no wallet: the view says why, and offers to try again. */
    failed(message: string) {
      stop()
      show({ error: message })
    },
    /** The modal closed: nothing more is asked. */
    stop() {
      stop()
      state = undefined
    },
    /**
     * The visitor went back from the view: nothing more is asked, and, with no login made, `reload` runs
     * {@link reloadAfterBackMs} later, so the logins offered start afresh (a new channel, the API's providers
     * read again).
     */
    left(loggedIn: boolean, reload: () => void) {
      stop()
      state = undefined
      if (!loggedIn) reloading = kernel.timers.setTimeout(reload, reloadAfterBackMs)
    },
  }
}
