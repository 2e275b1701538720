/**
 * A social login in a Telegram mini-app (docs/behaviour.md §2), the page's side. Telegram's view opens no
 * window beside the page, so the login leaves the page for the provider and comes back to it with
 * `?result_uri=` (the API's `social.ts`). The modal's frame may not navigate the page (its sandbox has no
 * `allow-top-navigation`): it asks the host (`leaveFor`), and the host goes only in a mini-app, within the
 * visitor's click, to an http(s) URL, naming the page to come back to itself. Coming back, the result is
 * taken out of the address at once and handed to the modal once (`socialResult`); alone it opens nothing,
 * since the modal kept the login's binding to itself. In the bridge script, so `airlock.js` does not grow.
 */
import { Errors } from '@airlock/bridge-protocol'
import { miniApp } from '@airlock/bridge-protocol/MiniApp'

/** The query parameter a login comes back with (the API's `Contract.socialResultParam`). */
const param = 'result_uri'

let looked = false
let result: string | undefined

/**
 * Takes the `result_uri` this page load came back with out of the address (and its history entry), once per
 * page load, and keeps it for {@link take}.
 */
export function clean(self: Window = window): void {
  if (looked) return
  looked = true
  const url = new URL(self.location.href)
  result = url.searchParams.get(param) ?? undefined
  if (result === undefined) return
  url.searchParams.delete(param)
  self.history.replaceState(self.history.state, '', url)
}

/**
 * The `result_uri` this page load came back with, handed over once: later calls answer nothing.
 * @example const handoff = take() // '…43 characters…', 'access_denied' or undefined
 */
export function take(self: Window = window): string | undefined {
  clean(self)
  const taken = result
  result = undefined
  return taken
}

/** Leaves the page for `url`, the API's start, asking to come back here; throws a typed error where it may not. */
export function leaveFor(url: string, self: Window = window): void {
  const app = (self as { Telegram?: { WebApp?: unknown } }).Telegram?.WebApp
  if (!miniApp(app)) throw new Errors.UnauthorizedError('Only a Telegram mini-app leaves the page to log in.')
  // The frame's click activates this page too (HTML's activation notification): no click, no leaving.
  if (!self.navigator.userActivation?.isActive)
    throw new Errors.UnauthorizedError('Leaving the page to log in needs the visitor to click.')
  const target = URL.canParse(url) ? new URL(url) : undefined
  if (!target || !/^https?:$/.test(target.protocol))
    throw new Errors.InvalidParamsError('The login to leave for is not an http(s) URL.')
  const here = new URL(self.location.href)
  here.searchParams.delete(param)
  here.hash = ''
  target.searchParams.set('return', here.href)
  self.location.assign(target.href)
}
