/**
 * Social login, the server's side: the modal opens a popup on `start`, the provider sends it back to
 * `callback`, and the modal's page trades the one-time code it lands with for a session.
 * - `GET /v1/auth/social?projectId=…` → `{ providers }`: the providers the configuration names, in docs/behaviour.md's
 *   order (`Contract.socialProviders`), for the modal's buttons; `[]` without social login. Cached 60 s.
 * - `GET /v1/auth/social/{provider}/start?projectId=…&binding=…[&return=…]` → 302 to the provider (PKCE S256,
 *   `state`, `nonce`). `binding` is a random value the modal keeps (`Contract.socialBinding`); its HMAC is kept
 *   with the state. `return` is for a login that leaves the page (a Telegram mini-app): the page to come back
 *   to, kept with the state too, once its origin is found on the project's list (the one that pins the
 *   dApp's origins), else 400 `Invalid return address`.
 * - `GET /v1/auth/social/{provider}/callback?code&state` → 302 to `{modalOrigin}/social.html#handoff=<code>`
 *   (60 s, once, bound to the start's binding), or `#error=<reason>` (`Contract.socialFailures`) when the
 *   provider refused, failed or vouched for no email. A session token never travels in a URL. The same
 *   answer comes as a `POST` of a form (`application/x-www-form-urlencoded`) from a provider that answers by
 *   `response_mode=form_post` (Apple): its body is read instead of the query, and checked alike. A login
 *   begun with `return` goes back there instead, with the same word in `?result_uri=` (`Contract.socialResultParam`):
 *   the page's address is the kept one, never one the callback's query names, so there is no open redirect;
 *   and the handoff is worth nothing to that page without the binding, which stays in the modal.
 * - `POST /v1/auth/social/exchange?projectId=…` `{ handoff, binding }` → `{ token, user: { id, email,
 *   provider, username? } }`: the same 30-day session as an email login's (`/v1/auth/me`, `/v1/auth/logout`).
 *
 * The binding is what stops login CSRF: the `state` proves the callback answers a start, not that the browser
 * bringing it is the one that started. An attacker could begin a login, sign in as themselves at the provider
 * and make a victim's browser open the callback; the victim's modal would then be logged in to the attacker's
 * account (and, with the embedded wallet, could fund it). The victim's modal holds another binding, so the
 * handoff opens nothing, and is spent.
 *
 * Error texts, each answered as `{ message }`: 400 `Invalid binding` (missing, or not 22–64 base64url
 * characters), 400 `Invalid state` (unknown, used, expired, or another provider's), 400/401 `Invalid handoff`
 * (malformed / unknown, used, expired, another project's, or shown with another binding), 400 `Invalid return
 * address` (not an http(s) URL of an origin the project allows, or with credentials or a fragment), 404 `Unknown social
 * provider` (not one the configuration names), 404 `Social login is not configured`.
 */
import { type Context, Hono } from 'hono'
import type { Config } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { HttpError } from '../../http/errors.ts'
import * as Limits from '../../http/limits.ts'
import { type Env, known } from '../../http/project.ts'
import { json, parse } from '../../http/validate.ts'
import * as Projects from '../projects/Projects.ts'
import * as Handoffs from './Handoffs.ts'
import * as Hmac from './Hmac.ts'
import * as Identities from './Identities.ts'
import * as Providers from './Providers.ts'
import * as Sessions from './Sessions.ts'
import * as States from './States.ts'

export type SocialOptions = {
  /** Where users, identities, logins in flight and sessions are kept. */
  db: Pick<Database, 'query'>
  /** Its `social` block names the providers; its `email.secret` keys handoff codes and session tokens. */
  config: Config
  /** The clock of states, handoffs and sessions. */
  now: () => number
}

const messages = {
  unknownProvider: 'Unknown social provider',
  notConfigured: 'Social login is not configured',
  invalidState: 'Invalid state',
  invalidHandoff: Contract.invalidHandoff,
} as const

/** How long a browser may keep `GET /v1/auth/social`'s list: a configuration change shows within a minute. */
const listMaxAgeS = 60

// Redirects carry codes: no cache may keep them, and no page they lead to may learn where they came from.
const redirectHeaders = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }

/**
 * @example
 * app.route('/', Social.create({ db, config, now: Date.now }))
 */
export function create(options: SocialOptions): Hono<Env> {
  const { db, config, now } = options
  const { requestTimeoutMs } = Limits.resolve(config.limits)
  // The configuration refuses a social block without the email one, whose secret is the sessions'.
  const social = config.social &&
    config.email && {
      secret: config.email.secret,
      providers: new Map(
        Object.entries(config.social.providers).flatMap(([id, settings]) =>
          isProvider(id) && settings ? [[id, Providers.create(id, settings, requestTimeoutMs)] as const] : [],
        ),
      ),
    }
  const app = new Hono<Env>()

  /** The route's provider, if the configuration names it. */
  const providerOf = (c: Context<Env>) => {
    const id = c.req.param('provider') ?? ''
    const provider = isProvider(id) ? social?.providers.get(id) : undefined
    if (!social || !provider || !isProvider(id)) throw new HttpError(404, messages.unknownProvider)
    const callbackUrl = `${config.apiUrl}/v1/auth/social/${id}/callback`
    return { id, provider, callbackUrl, secret: social.secret }
  }
  const redirect = (c: Context<Env>, location: string) => {
    for (const [name, value] of Object.entries(redirectHeaders)) c.header(name, value)
    return c.redirect(location, 302)
  }
  /** Hands the login's outcome to the modal: in `social.html`'s fragment, or back on the page it left. */
  const toModal = (c: Context<Env>, key: 'handoff' | 'error', word: string, returnTo: string | undefined) => {
    if (!returnTo) return redirect(c, `${config.modalOrigin}/social.html#${key}=${word}`)
    const back = new URL(returnTo)
    back.searchParams.set(Contract.socialResultParam, word)
    return redirect(c, back.href)
  }
  const failed = (
    c: Context<Env>,
    provider: string,
    reason: Contract.SocialFailure,
    detail: unknown,
    returnTo: string | undefined,
  ) => {
    // openid-client's errors name the provider's OAuth error code apart from their message.
    const code = detail instanceof Error && 'error' in detail ? ` (${String(detail.error)})` : ''
    // fetch says only "fetch failed"; its cause says whether the provider refused, reset or never answered.
    const cause =
      detail instanceof Error
        ? (detail.cause as { code?: unknown; message?: unknown } | undefined)
        : undefined
    const why = cause ? `: ${String(cause.code ?? cause.message)}` : ''
    const text = detail instanceof Error ? `${detail.message}${code}${why}` : String(detail)
    // Part of it is the provider's (or whoever called the callback's) words: quoted, bounded, one line.
    console.warn(`[airlock-api] A ${provider} login failed (${reason}):`, JSON.stringify(text.slice(0, 300)))
    return toModal(c, 'error', reason, returnTo)
  }

  app.get('/v1/auth/social', (c) => {
    known(c, Contract.commonQuery)
    const providers = Contract.socialProviders.filter((id) => social?.providers.has(id))
    // The list changes only with the configuration: a minute's cache spares the modal a call per open.
    c.header('Cache-Control', `public, max-age=${listMaxAgeS}`)
    return c.json({
      providers,
      farcaster: config.farcaster !== undefined,
    } satisfies Contract.SocialProvidersAnswer)
  })

  app.get('/v1/auth/social/:provider/start', async (c) => {
    const { id, provider, callbackUrl, secret } = providerOf(c)
    const { project, binding, return: back } = known(c, Contract.socialStartQuery)
    // The project's own list, the one its pages are pinned to: anything else would make this an open redirect.
    if (back && !Projects.allows(project, back.origin)) throw new HttpError(400, Contract.invalidReturn)
    const returnTo = back?.href
    let begun: Awaited<ReturnType<Providers.Provider['begin']>>
    try {
      begun = await provider.begin(callbackUrl)
    } catch (error) {
      return failed(c, id, 'provider_error', error, returnTo)
    }
    const bindingHash = bindingHashOf(secret, binding)
    const pending = { ...begun.checks, provider: id, projectId: project.id, bindingHash, returnTo }
    await States.put(db, pending, now())
    return redirect(c, begun.url.href)
  })

  app.on(['GET', 'POST'], '/v1/auth/social/:provider/callback', async (c) => {
    const { id, provider, callbackUrl, secret } = providerOf(c)
    const answer = await answerOf(c)
    const query = Object.fromEntries(answer)
    const pending = query.state ? await States.take(db, query.state, id, now()) : undefined
    if (!pending) throw new HttpError(400, messages.invalidState)
    if (query.error) {
      const reason = query.error === 'access_denied' ? 'access_denied' : 'provider_error'
      return failed(c, id, reason, `${query.error}: ${query.error_description ?? ''}`, pending.returnTo)
    }
    let profile: Providers.Profile
    try {
      const url = new URL(callbackUrl)
      url.search = answer.toString()
      profile = await provider.finish(url, pending)
    } catch (error) {
      return failed(c, id, 'provider_error', error, pending.returnTo)
    }
    const user = await Identities.userFor(db, id, profile, now())
    if (!user)
      return failed(c, id, 'email_not_verified', `no verified email for ${profile.subject}`, pending.returnTo)
    const handoff = {
      userId: user.id,
      projectId: pending.projectId,
      provider: id,
      username: profile.username,
      bindingHash: pending.bindingHash,
    }
    const code = await Handoffs.issue(db, handoff, { secret, now: now() })
    return toModal(c, 'handoff', code, pending.returnTo)
  })

  app.post('/v1/auth/social/exchange', async (c) => {
    const { project } = known(c, Contract.commonQuery)
    if (!social) throw new HttpError(404, messages.notConfigured)
    const { secret } = social
    const { handoff, binding } = parse(Contract.socialExchangeBody, await json(c))
    const bindingHash = bindingHashOf(secret, binding)
    const login = await Handoffs.redeem(db, handoff, {
      projectId: project.id,
      bindingHash,
      secret,
      now: now(),
    })
    if (!login) throw new HttpError(401, messages.invalidHandoff)
    const { token } = await Sessions.open(db, {
      userId: login.userId,
      projectId: project.id,
      secret,
      now: now(),
    })
    const user: Contract.SocialUser = { id: login.userId, provider: login.provider }
    if (login.email) user.email = login.email
    if (login.username) user.username = login.username
    return c.json({ token, user } satisfies Contract.SocialSessionAnswer)
  })

  return app
}

/**
 * The provider's answer to the authorization: the query of a redirect, or the form it had the browser post.
 * A POST of anything else carries no answer (and so no state: 400 `Invalid state`).
 */
async function answerOf(c: Context<Env>): Promise<URLSearchParams> {
  if (c.req.method !== 'POST') return new URL(c.req.url).searchParams
  const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase()
  return new URLSearchParams(type === 'application/x-www-form-urlencoded' ? await c.req.text() : '')
}

/** A binding is kept only as its HMAC: a copy of the database does not tell what the modal holds. */
function bindingHashOf(secret: string, binding: string): string {
  return Hmac.digest(secret, 'social-binding', binding)
}

function isProvider(id: string): id is Contract.SocialProvider {
  return (Contract.socialProviders as readonly string[]).includes(id)
}
