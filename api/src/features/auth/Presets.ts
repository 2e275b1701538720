/**
 * What each social provider is like, by its id: the scope it is asked for when the configuration names none,
 * how the client shows its secret at the token endpoint, how the provider answers the authorization, and
 * how its user endpoint (kind `oauth2`) writes a person. A provider's quirk is a line here, never a branch in
 * `Providers.ts`. ID tokens (kind `oidc`) are read alike for all: {@link idTokenProfile}.
 * - `google` (`oidc`): `email_verified` in the ID token.
 * - `apple` (`oidc`): the ID token too, `email_verified` written `"true"`; answers by `response_mode=form_post`
 *   once the scope asks for `email` or `name` (the callback is then a POST).
 * - `github` (`oauth2`): `GET /user` `{ id, login, email }` or an OpenID userinfo; an address is verified
 *   only by `email_verified`, which GitHub's `/user` never writes.
 * - `discord` (`oauth2`): `GET /users/@me` `{ id, username, email, verified }`.
 * - `facebook` (`oauth2`): `GET /me?fields=id,name,email` `{ id, name, email }`; it answers only a confirmed
 *   address, so one answered is verified.
 * - `x` (`oauth2`, the secret as HTTP Basic): `GET /2/users/me?user.fields=confirmed_email`
 *   `{ data: { id, username, confirmed_email } }`, the address only with the elevated `users.email` scope;
 *   without it the login is refused (`email_not_verified`).
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
  /** The person of the user endpoint's JSON (kind `oauth2`); throws on an answer of another shape. */
  user(answer: unknown, source: string): Profile
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

/** GitHub's `/user` (`id`, `login`) or an OpenID userinfo (`sub`, `preferred_username`). */
const openIdUser = S.object({
  id: S.optional(S.union(S.number(0, Number.MAX_SAFE_INTEGER), id)),
  sub: S.optional(id),
  login: handle,
  preferred_username: handle,
  email: S.optional(S.unknown),
  email_verified: verifiedFlag,
})

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

/** The reading of an OpenID userinfo, or of GitHub's `/user`. */
function openId(answer: unknown, source: string): Profile {
  const user = parse(openIdUser, answer, source)
  const subject = user.id === undefined ? user.sub : String(user.id)
  if (subject === undefined) throw new Error(`${source} named no user`)
  return {
    subject,
    ...contact(user.email, user.email_verified),
    username: user.login ?? user.preferred_username,
  }
}

export const presets: Record<Contract.SocialProvider, Preset> = {
  google: { scope: 'openid email profile', clientAuth: 'post', formPost: never, user: openId },
  apple: {
    scope: 'openid email name',
    clientAuth: 'post',
    // Apple refuses a query answer once the scope asks for the email or the name.
    formPost: (scope) => /(^| )(email|name)( |$)/.test(scope),
    user: openId,
  },
  github: { scope: 'read:user user:email', clientAuth: 'post', formPost: never, user: openId },
  discord: {
    scope: 'identify email',
    clientAuth: 'post',
    formPost: never,
    user(answer, source) {
      const user = parse(discordUser, answer, source)
      return { subject: user.id, ...contact(user.email, user.verified), username: user.username }
    },
  },
  facebook: {
    scope: 'email public_profile',
    clientAuth: 'post',
    formPost: never,
    user(answer, source) {
      const user = parse(facebookUser, answer, source)
      // Facebook leaves out an address its owner has not confirmed.
      return { subject: user.id, ...contact(user.email, true), username: undefined }
    },
  },
  x: {
    scope: 'tweet.read users.read users.email',
    // X takes a confidential client's secret only as HTTP Basic.
    clientAuth: 'basic',
    formPost: never,
    user(answer, source) {
      const { data } = parse(xUser, answer, source)
      // Only a confirmed address is ever answered; without the elevated scope, none: the login is refused.
      return { subject: data.id, ...contact(data.confirmed_email, true), username: data.username }
    },
  },
}

/**
 * The person of an ID token's claims, as openid-client checked them (signature, issuer, audience, expiry,
 * nonce): the same standard claims for every OpenID provider.
 */
export function idTokenProfile(claims: unknown): Profile {
  const parsed = parse(idClaims, claims, 'the ID token')
  return {
    subject: parsed.sub,
    ...contact(parsed.email, parsed.email_verified),
    username: parsed.preferred_username,
  }
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
