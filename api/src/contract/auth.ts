/**
 * Email one-time-code login: `POST /v1/auth/email`, `POST /v1/auth/email/verify`, `GET /v1/auth/me`,
 * `POST /v1/auth/logout` and the change-email routes under `/v1/auth/email/change`; social login:
 * `GET /v1/auth/social` (the providers this deployment configures, for the modal's buttons),
 * `GET /v1/auth/social/{provider}/start?binding` and `…/callback` (browser navigations; Apple's callback is
 * a POST), `POST /v1/auth/social/exchange`; Sign In With Farcaster: `POST /v1/auth/farcaster/channel` and
 * `POST /v1/auth/farcaster/status`.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { projectId, sdkField } from './common.ts'

/** The text of a malformed address. */
export const invalidEmail = 'Invalid email'
/** The text of a code that is not 6 digits. */
export const invalidCode = 'Invalid code'

/** The longest address SMTP carries (RFC 5321's 256-character path, less its angle brackets). */
export const emailMax = 254

// RFC 5322's dot-atom on both sides: no quoted local parts, comments or IP literals, which real sign-ups
// do not use and some mail servers refuse. The domain is DNS labels ending in a letter TLD (or an IDN's
// `xn--` one), so `user@localhost` and `user@[127.0.0.1]` are refused too. A literal, not built from parts,
// so bundlers see nothing to run and drop it when the modal does not use it.
const emailPattern =
  /^([A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59}))$/

/**
 * An email address: trimmed, checked, and lower-cased whole, so that one mailbox is one user whichever way it
 * is typed (logging in, changing the email, a provider's address at social login). RFC 5321 §2.4 lets the
 * receiving server tell `Ada@` from `ada@`, but every mainstream provider treats local parts as
 * case-insensitive, and two accounts for one mailbox would be worse than none for a server that does not.
 * Anything else fails with {@link invalidEmail}.
 * @example S.parse(Contract.emailAddress, ' Ada@Example.COM') // { ok: true, value: 'ada@example.com' }
 */
export const emailAddress: S.Shape<string> = (value) => {
  const match = typeof value === 'string' && value.length <= 512 ? emailPattern.exec(value.trim()) : null
  const [, local = '', domain = ''] = match ?? []
  if (!match || local.length > 64 || domain.length > 253 || local.length + 1 + domain.length > emailMax)
    throw new S.ShapeError(invalidEmail)
  return `${local}@${domain}`.toLowerCase()
}

/** A one-time code: 6 digits. */
export const oneTimeCode: S.Shape<string> = (value) => {
  if (typeof value !== 'string' || !/^\d{6}$/.test(value)) throw new S.ShapeError(invalidCode)
  return value
}

/** `POST /v1/auth/email` and `POST /v1/auth/email/change`: where to send a code. */
export const emailBody = S.object({ email: emailAddress })
export type EmailBody = S.Infer<typeof emailBody>

/** `POST /v1/auth/email/verify`: the code the address received. */
export const emailVerifyBody = S.object({ email: emailAddress, code: oneTimeCode })
export type EmailVerifyBody = S.Infer<typeof emailVerifyBody>

/** `POST /v1/auth/email/change/verify` and `…/change/confirm`: the code of the step. */
export const emailCodeBody = S.object({ code: oneTimeCode })
export type EmailCodeBody = S.Infer<typeof emailCodeBody>

/** A code is on its way; another may be asked for after `retryAfter` seconds. */
export const emailCodeAnswer = S.object({ sent: S.literal(true), retryAfter: S.number(0, 3_600) })
export type EmailCodeAnswer = S.Infer<typeof emailCodeAnswer>

/** A person who logs in by email. */
export const emailUser = S.object({ id: S.string(64, 1), email: S.string(emailMax, 3) })
export type EmailUser = S.Infer<typeof emailUser>

/** A session opened by a code: `token` is its bearer credential (`Authorization: Bearer …`), shown once. */
export const emailSessionAnswer = S.object({ token: S.string(128, 16), user: emailUser })
export type EmailSessionAnswer = S.Infer<typeof emailSessionAnswer>

/** `GET /v1/auth/me` and `POST /v1/auth/email/change/confirm`: the session's user. */
export const emailUserAnswer = S.object({ user: emailUser })
export type EmailUserAnswer = S.Infer<typeof emailUserAnswer>

/** `POST /v1/auth/logout`. */
export const logoutAnswer = S.object({ success: S.literal(true) })
export type LogoutAnswer = S.Infer<typeof logoutAnswer>

/**
 * docs/behaviour.md §5's social providers, by the ids the configuration and the routes name them with, in the order of
 * docs/behaviour.md §1's default socials (less Farcaster, whose login is a signed message, not OAuth).
 */
export const socialProviders = ['google', 'x', 'discord', 'github', 'apple', 'facebook'] as const
export type SocialProvider = (typeof socialProviders)[number]
export const socialProvider = S.picklist(socialProviders)

/** `GET /v1/auth/social`: the providers this deployment configures, in {@link socialProviders}' order. */
export const socialProvidersAnswer = S.object({
  providers: S.array(socialProvider, 6),
  /** Whether Sign In With Farcaster is on (`/v1/auth/farcaster/…`). */
  farcaster: S.optional(S.boolean),
})
export type SocialProvidersAnswer = S.Infer<typeof socialProvidersAnswer>

/**
 * Why a social login failed, as the API's callback tells the modal's page (`social.html#error=<reason>`):
 * the visitor or the provider refused (`access_denied`), the provider could not be reached or its answer did
 * not check out (`provider_error`), or it vouched for no email address (`email_not_verified`).
 */
export const socialFailures = ['access_denied', 'provider_error', 'email_not_verified'] as const
export type SocialFailure = (typeof socialFailures)[number]

/** The text of a handoff code that is malformed, unknown, used or expired, or shown with another binding. */
export const invalidHandoff = 'Invalid handoff'
/** The text of a binding that is missing or not 22–64 base64url characters. */
export const invalidBinding = 'Invalid binding'

/**
 * The random value (base64url, 22–64 characters: 16 bytes or more) the modal draws for each social login and
 * keeps to itself: the start is given it, and the exchange must show it again, so that a handoff only works
 * for the modal that began the login. A login an attacker began, whose callback a victim's browser is made
 * to open, then opens nothing (login CSRF, RFC 6749 §10.12).
 */
export const socialBinding: S.Shape<string> = (value) => {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{22,64}$/.test(value))
    throw new S.ShapeError(invalidBinding)
  return value
}

/** The text of a `return` address that is not an http(s) URL of an origin the project allows. */
export const invalidReturn = 'Invalid return address'

/**
 * The name of the query parameter a login that left the page comes back with (`return`): the handoff code,
 * or one of {@link socialFailures}, as `social.html`'s fragment would have said.
 */
export const socialResultParam = 'result_uri'

/**
 * Where a login that leaves the page for the provider (a Telegram mini-app, where no window can be opened
 * beside it) sends the visitor back: an http(s) URL without credentials or fragment, at most 2,048
 * characters. Whether its origin is on the project's list is the route's check.
 */
export const socialReturn: S.Shape<URL> = (value) => {
  const url = typeof value === 'string' && value.length <= 2048 && URL.canParse(value) ? new URL(value) : null
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.hash)
    throw new S.ShapeError(invalidReturn)
  return url
}

/**
 * `GET /v1/auth/social/{provider}/start`: the project, the modal's {@link socialBinding}, and for a login that
 * leaves the page, where it comes back to ({@link socialReturn}).
 */
export const socialStartQuery = S.object({
  projectId,
  st: sdkField,
  sv: sdkField,
  binding: socialBinding,
  return: S.optional(socialReturn),
})
export type SocialStartQuery = S.Infer<typeof socialStartQuery>

/**
 * `POST /v1/auth/social/exchange`: the one-time code the callback put in `social.html#handoff=`, and the
 * binding the modal gave the start.
 */
export const socialExchangeBody = S.object({
  handoff: (value: unknown): string => {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(value))
      throw new S.ShapeError(invalidHandoff)
    return value
  },
  binding: socialBinding,
})
export type SocialExchangeBody = S.Infer<typeof socialExchangeBody>

/**
 * A person logged in through a provider: `username` is the provider's handle (GitHub's login), if any.
 * `email` is the user's, which a provider that never vouches for an address (Facebook) does not give:
 * such a person is a user of their own, without one.
 */
export const socialUser = S.object({
  id: S.string(64, 1),
  email: S.optional(S.string(emailMax, 3)),
  provider: socialProvider,
  username: S.optional(S.string(256, 1)),
})
export type SocialUser = S.Infer<typeof socialUser>

/** A session opened by a social login: the same bearer token as an email login's, shown once. */
export const socialSessionAnswer = S.object({ token: S.string(128, 16), user: socialUser })
export type SocialSessionAnswer = S.Infer<typeof socialSessionAnswer>

/**
 * A Farcaster id: a positive whole number (the IdRegistry's `uint256`; every fid so far is far below 2^53).
 */
export const fid: S.Shape<number> = (value, path) => {
  const n = S.number(1, Number.MAX_SAFE_INTEGER)(value, path)
  if (!Number.isInteger(n)) throw new S.ShapeError(`${path ? `${path}: ` : ''}expected a whole number`)
  return n
}

/** The text of a channel token that is missing or not 8–128 letters, digits, `-` and `_`. */
export const invalidChannelToken = 'Invalid channel token'

/** A Farcaster relay's channel token (the relay's is a UUID). */
export const farcasterChannelToken: S.Shape<string> = (value) => {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{8,128}$/.test(value))
    throw new S.ShapeError(invalidChannelToken)
  return value
}

/**
 * `POST /v1/auth/farcaster/channel`: the random binding the modal keeps for this sign-in (as a social
 * login's, {@link socialBinding}); the status must show it again.
 */
export const farcasterChannelBody = S.object({ binding: socialBinding })
export type FarcasterChannelBody = S.Infer<typeof farcasterChannelBody>

/**
 * A Sign In With Farcaster request: the relay's channel token (to ask `POST /v1/auth/farcaster/status`
 * with), and the URL the visitor's Farcaster app opens (a link, or a QR code to scan).
 */
export const farcasterChannelAnswer = S.object({
  channelToken: farcasterChannelToken,
  url: S.string(4096, 8, /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/),
})
export type FarcasterChannelAnswer = S.Infer<typeof farcasterChannelAnswer>

/** `POST /v1/auth/farcaster/status`: the channel, and the binding its creation was given. */
export const farcasterStatusBody = S.object({ channelToken: farcasterChannelToken, binding: socialBinding })
export type FarcasterStatusBody = S.Infer<typeof farcasterStatusBody>

/** `POST /v1/auth/farcaster/status` while the visitor has not yet approved in their app: 202. */
export const farcasterPendingAnswer = S.object({ state: S.literal('pending') })
export type FarcasterPendingAnswer = S.Infer<typeof farcasterPendingAnswer>

/**
 * A person logged in by Sign In With Farcaster: `fid` is their Farcaster id, the one thing the API checked
 * (their custody address signed, and owns it); `username` is what the relay called them, for display.
 */
export const farcasterUser = S.object({
  id: S.string(64, 1),
  provider: S.literal('farcaster'),
  fid,
  username: S.optional(S.string(256, 1)),
})
export type FarcasterUser = S.Infer<typeof farcasterUser>

/** A session opened by Sign In With Farcaster: the same bearer token as an email login's, shown once. */
export const farcasterSessionAnswer = S.object({ token: S.string(128, 16), user: farcasterUser })
export type FarcasterSessionAnswer = S.Infer<typeof farcasterSessionAnswer>

/**
 * `GET /v1/auth/me` of any session: an email or social login's user is {@link emailUser} (so
 * {@link emailUserAnswer} still parses it), a Farcaster login's, who has no email, {@link farcasterUser},
 * and a Facebook login's, who has none either, {@link socialUser} without `email`.
 */
export const sessionUser = S.union(emailUser, farcasterUser, socialUser)
export const sessionUserAnswer = S.object({ user: sessionUser })
export type SessionUserAnswer = S.Infer<typeof sessionUserAnswer>
