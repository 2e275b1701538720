/**
 * The social login providers, as an OAuth 2.0 client (openid-client): where to send the visitor with PKCE
 * (S256), a random `state` and, for OpenID Connect, a `nonce`; and, once the provider sends them back with a
 * code, who they are. Each kind reads that its own way: `oidc` from the ID token openid-client has checked
 * (signature, issuer, audience, expiry, nonce), `oauth2` from the provider's user endpoint, asked with the
 * access token, never from an ID token (GitHub signs none).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import * as client from 'openid-client'
import { isLoopback, type SocialProviderConfig } from '../../Config.ts'
import * as Contract from '../../contract/index.ts'

/** Who logged in, as the provider tells it. `email` is spelled as `Contract.emailAddress` parses it. */
export type Profile = {
  /** The provider's stable id of the person (`sub`, GitHub's numeric `id`). */
  subject: string
  email: string | undefined
  /** Whether the provider says the person proved they own `email`. */
  emailVerified: boolean
  /** The provider's handle (GitHub's `login`, `preferred_username`), if it gives one. */
  username: string | undefined
}

/** What the callback needs to finish a login its start began. */
export type Checks = { state: string; codeVerifier: string; nonce: string | undefined }

export type Provider = {
  /** The provider's authorization URL for a new login, and the checks to keep for its callback. */
  begin(redirectUri: string): Promise<{ url: URL; checks: Checks }>
  /** Trades the code of `callbackUrl` (the registered redirect URI with the provider's query) for the profile. */
  finish(callbackUrl: URL, checks: Checks): Promise<Profile>
}

/**
 * Each call to a provider may take this long: the callback makes up to three (token, keys, user), and all
 * of them end before the API's 10 s request time-out, so a slow provider still ends in a redirect to the
 * modal rather than a bare 503.
 */
const timeoutS = 3

type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>

/** One implementation per kind: its default scope, whether it sends a nonce, where the profile is read. */
type Kind = {
  scope: string
  nonce: boolean
  profile(
    configuration: client.Configuration,
    tokens: Tokens,
    settings: SocialProviderConfig,
  ): Promise<Profile>
}

// Apple writes email_verified as the string "true".
const verifiedFlag = S.optional(S.union(S.boolean, S.picklist(['true', 'false'])))
const handle = S.optional(S.string(256, 1))

const idClaims = S.object({
  sub: S.string(255, 1),
  email: S.optional(S.unknown),
  email_verified: verifiedFlag,
  preferred_username: handle,
})

/** GitHub's `/user` (`id`, `login`) or an OpenID userinfo (`sub`, `preferred_username`). */
const userinfo = S.object({
  id: S.optional(S.union(S.number(0, Number.MAX_SAFE_INTEGER), S.string(255, 1))),
  sub: S.optional(S.string(255, 1)),
  login: handle,
  preferred_username: handle,
  email: S.optional(S.unknown),
  email_verified: verifiedFlag,
})

const kinds: Record<SocialProviderConfig['kind'], Kind> = {
  oidc: {
    scope: 'openid email profile',
    nonce: true,
    async profile(_configuration, tokens) {
      const claims = parse(idClaims, tokens.claims(), 'the ID token')
      return {
        subject: claims.sub,
        ...contact(claims.email, claims.email_verified),
        username: claims.preferred_username,
      }
    },
  },
  oauth2: {
    scope: 'read:user user:email',
    nonce: false,
    async profile(configuration, tokens, settings) {
      const url = new URL(settings.userinfoUrl ?? '')
      const headers = new Headers({ accept: 'application/json' })
      const response = await client.fetchProtectedResource(
        configuration,
        tokens.access_token,
        url,
        'GET',
        null,
        headers,
      )
      if (!response.ok) throw new Error(`${url} answered ${response.status}`)
      const user = parse(userinfo, await response.json(), String(url))
      const subject = user.id === undefined ? user.sub : String(user.id)
      if (subject === undefined) throw new Error(`${url} named no user`)
      return {
        subject,
        ...contact(user.email, user.email_verified),
        username: user.login ?? user.preferred_username,
      }
    },
  },
}

/**
 * A provider's client; it reads the issuer's discovery document at the first login (again after a
 * failure). Plain http is allowed only for an issuer on loopback: the development provider.
 * @example const google = Providers.create(config.social.providers.google)
 */
export function create(settings: SocialProviderConfig): Provider {
  const kind = kinds[settings.kind]
  const scope = settings.scope ?? kind.scope
  let discovered: Promise<client.Configuration> | undefined
  const discover = () => {
    discovered ??= client
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: isLoopback(settings.issuer) ? [client.allowInsecureRequests] : [],
        timeout: timeoutS,
      })
      .catch((error: unknown) => {
        discovered = undefined
        throw error
      })
    return discovered
  }
  return {
    async begin(redirectUri) {
      const configuration = await discover()
      const checks: Checks = {
        state: client.randomState(),
        codeVerifier: client.randomPKCECodeVerifier(),
        nonce: kind.nonce ? client.randomNonce() : undefined,
      }
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope,
        state: checks.state,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...(checks.nonce ? { nonce: checks.nonce } : {}),
      })
      return { url, checks }
    },
    async finish(callbackUrl, checks) {
      const configuration = await discover()
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        ...(checks.nonce ? { expectedNonce: checks.nonce } : {}),
      })
      return kind.profile(configuration, tokens, settings)
    },
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
