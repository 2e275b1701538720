/**
 * What each social provider is like, by its id: the scope it is asked for when the configuration names none,
 * how the client shows its secret at the token endpoint, how the provider answers the authorization, and
 * how its user endpoints (kind `oauth2`) tell who logged in. A provider's quirk is a line here, never a
 * branch in `Providers.ts`. ID tokens (kind `oidc`) are read alike for all: {@link idTokenProfile}.
 * - `google` (`oidc`): `email_verified` in the ID token.
 * - `apple` (`oidc`): the ID token too, `email_verified` written `"true"`; answers by `response_mode=form_post`
 *   once the scope asks for `email` or `name` (the callback is then a POST).
 * - `github` (`oauth2`): `GET /user` `{ id, login }` (its `email` is the public one, if any, and says nothing
 *   of verification), then `GET /user/emails` `[{ email, primary, verified }]` (scope `user:email`): the
 *   primary address if verified, else any verified one. Asked as its REST API wants
 *   (`Accept: application/vnd.github+json`).
 * - `discord` (`oauth2`): `GET /users/@me` `{ id, username, email, verified }`.
 * - `facebook` (`oauth2`): `GET /me?fields=id,name,email` `{ id, name, email }`. Its reference calls `email`
 *   "the primary email address listed on their profile", and neither the Graph API nor Limited Login's ID
 *   token says whether it was ever confirmed (an address typed at sign-up, or none for a phone sign-up), so
 *   it is never verified: a Facebook person is a user of its own, never joined by email
 *   (`Identities.ts`, {@link Preset.vouches}).
 * - `x` (`oauth2`, the secret as HTTP Basic): `GET /2/users/me?user.fields=confirmed_email`
 *   `{ data: { id, username, confirmed_email } }`, the address only with the elevated `users.email` scope;
 *   without it the login is refused (`email_not_verified`).
 * - `google` and `apple` configured as `oauth2`: an OpenID userinfo `{ sub, email, email_verified }`.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import * as Contract from '../../contract/index.ts'

/** Who logged in, as the provider tells it. `email` is spelled as `Contract.emailAddress` parses it. */
export type Profile = {
  /** The provider's stable id of the person (`sub`, GitHub's numeric `id`, X's `data.id`). */
  subject: string
  email: string | undefined
  /** Whether the provider says the person proved they own `email`. */
  emailVerified: boolean
  /** The provider's handle (GitHub's `login`, Discord's and X's `username`), if it gives one. */
  username: string | undefined
}

/**
 * Asks one of the provider's user endpoints with the login's access token: its JSON answer. Throws when the
 * endpoint answers anything but success.
 */
export type Ask = (url: URL) => Promise<unknown>

export type Preset = {
  /** The scope asked for when the configuration names none. */
  scope: string
  /** How the client shows its secret at the token endpoint: in the form body, or as HTTP Basic (X's rule). */
  clientAuth: 'post' | 'basic'
  /**
   * Whether, for this scope, the provider answers by posting a form to the callback
   * (`response_mode=form_post`) rather than redirecting with a query.
   */
  formPost(scope: string): boolean
  /**
   * Whether the provider says, person by person, that their address is verified (Google's and Apple's
   * `email_verified`, GitHub's and Discord's `verified`, X's `confirmed_email`). One that never does
   * (Facebook) cannot link by email: its people become users of their own, with no email.
   */
  vouches: boolean
  /** Headers its user endpoints want beside the access token. @default `{ accept: 'application/json' }` */
  headers?: Readonly<Record<string, string>>
  /**
   * The person behind the access token (kind `oauth2`), asked of the configured user endpoint (and of any
   * other the provider needs beside it); throws on an answer of another shape.
   */
  user(ask: Ask, userinfoUrl: URL): Promise<Profile>
}

// Apple writes email_verified as the string "true".
const verifiedFlag = S.optional(S.union(S.boolean, S.picklist(['true', 'false'])))
const handle = S.optional(S.string(256, 1))
const id = S.string(255, 1)

const idClaims = S.object({
  sub: id,
  email: S.optional(S.unknown),
  email_verified: verifiedFlag,
  preferred_username: handle,
})

/** GitHub's `/user`: the numeric `id` and the `login`; its `email` (the public one) is not read. */
const githubUser = S.object({
  id: S.check(S.number(1, Number.MAX_SAFE_INTEGER), Number.isInteger, 'id: expected an integer'),
  login: S.string(256, 1),
})

/** GitHub's `/user/emails`, one page. */
const githubEmails = S.array(S.object({ email: S.unknown, primary: S.boolean, verified: S.boolean }), 100)

/** Discord's `/users/@me`: `email` is null without the `email` scope. */
const discordUser = S.object({
  id,
  username: handle,
  email: S.optional(S.unknown),
  verified: S.optional(S.boolean),
})

/** Facebook's Graph `/me?fields=id,name,email`; `name` is a display name, not a handle. */
const facebookUser = S.object({ id, email: S.optional(S.unknown) })

/** X's `/2/users/me`; `confirmed_email` only with the `users.email` scope and `user.fields=confirmed_email`. */
const xUser = S.object({
  data: S.object({ id, username: handle, confirmed_email: S.optional(S.unknown) }),
})

const never = () => false

/** A reading of one user endpoint's JSON: the configured one. */
const answerOf =
  (read: (answer: unknown, source: string) => Profile) =>
  async (ask: Ask, url: URL): Promise<Profile> =>
    read(await ask(url), String(url))

/** An OpenID userinfo's person, or an ID token's: the same standard claims. */
function openIdProfile(answer: unknown, source: string): Profile {
  const claims = parse(idClaims, answer, source)
  return {
    subject: claims.sub,
    ...contact(claims.email, claims.email_verified),
    username: claims.preferred_username,
  }
}

const openId = answerOf(openIdProfile)

export const presets: Record<Contract.SocialProvider, Preset> = {
  google: { scope: 'openid email profile', clientAuth: 'post', formPost: never, vouches: true, user: openId },
  apple: {
    scope: 'openid email name',
    clientAuth: 'post',
    // Apple refuses a query answer once the scope asks for the email or the name.
    formPost: (scope) => /(^| )(email|name)( |$)/.test(scope),
    vouches: true,
    user: openId,
  },
  github: {
    scope: 'read:user user:email',
    clientAuth: 'post',
    formPost: never,
    vouches: true,
    // GitHub's REST API wants its media type, and pins a version so its answers keep their shape.
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    async user(ask, userinfoUrl) {
      const emailsUrl = githubEmailsUrl(userinfoUrl)
      const [user, emails] = await Promise.all([ask(userinfoUrl), ask(emailsUrl)])
      const { id, login } = parse(githubUser, user, String(userinfoUrl))
      const addresses = parse(githubEmails, emails, String(emailsUrl))
      // `/user`'s email is only what the person chose to show; `/user/emails` alone tells what is verified.
      const verified = addresses.filter(
        (address) => address.verified && S.parse(Contract.emailAddress, address.email).ok,
      )
      const address = verified.find((each) => each.primary) ?? verified[0]
      return { subject: String(id), ...contact(address?.email, true), username: login }
    },
  },
  discord: {
    scope: 'identify email',
    clientAuth: 'post',
    formPost: never,
    vouches: true,
    user: answerOf((answer, source) => {
      const user = parse(discordUser, answer, source)
      return { subject: user.id, ...contact(user.email, user.verified), username: user.username }
    }),
  },
  facebook: {
    scope: 'email public_profile',
    clientAuth: 'post',
    formPost: never,
    vouches: false,
    user: answerOf((answer, source) => {
      const user = parse(facebookUser, answer, source)
      // The address is read, never vouched for: Facebook does not say it was confirmed.
      return { subject: user.id, ...contact(user.email, false), username: undefined }
    }),
  },
  x: {
    scope: 'tweet.read users.read users.email',
    // X takes a confidential client's secret only as HTTP Basic.
    clientAuth: 'basic',
    formPost: never,
    vouches: true,
    user: answerOf((answer, source) => {
      const { data } = parse(xUser, answer, source)
      // Only a confirmed address is ever answered; without the elevated scope, none: the login is refused.
      return { subject: data.id, ...contact(data.confirmed_email, true), username: data.username }
    }),
  },
}

/**
 * GitHub's `/user/emails`, beside its `/user` (`https://api.github.com/user`, or an Enterprise server's
 * `/api/v3/user`), asking a page of 100, its most: the default 30 could leave the primary address on the next.
 */
export function githubEmailsUrl(userinfoUrl: URL): URL {
  const url = new URL(userinfoUrl)
  url.pathname = `${url.pathname.replace(/\/$/, '')}/emails`
  url.search = 'per_page=100'
  return url
}

/**
 * The person of an ID token's claims, as openid-client checked them (signature, issuer, audience, expiry,
 * nonce): the same standard claims for every OpenID provider.
 */
export function idTokenProfile(claims: unknown): Profile {
  return openIdProfile(claims, 'the ID token')
}

function parse<T>(shape: S.Shape<T>, value: unknown, source: string): T {
  const parsed = S.parse(shape, value)
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`)
  return parsed.value
}

/** The address, if it is one, and whether the provider vouches for it. */
function contact(email: unknown, verified: boolean | 'true' | 'false' | undefined) {
  const parsed = S.parse(Contract.emailAddress, email)
  return parsed.ok
    ? { email: parsed.value, emailVerified: verified === true || verified === 'true' }
    : { email: undefined, emailVerified: false }
}
