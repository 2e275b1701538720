/**
 * The social login providers, as an OAuth 2.0 client (openid-client): where to send the visitor with PKCE
 * (S256), a random `state` and, for OpenID Connect, a `nonce`; and, once the provider sends them back with a
 * code, who they are. Each kind reads that its own way: `oidc` from the ID token openid-client has checked
 * (its signature against the keys of the provider's `jwks_uri`, issuer, audience, expiry, nonce), `oauth2`
 * from the provider's user endpoint, asked with the
 * access token, never from an ID token (GitHub signs none). What differs by provider (scope, client
 * authentication, Apple's form post, which user endpoints to ask and how, their JSON) is its preset
 * (`Presets.ts`).
 */
import * as client from 'openid-client'
import { isLoopback, type SocialProviderConfig } from '../../Config.ts'
import type { SocialProvider } from '../../contract/index.ts'
import { type Ask, idTokenProfile, type Profile, presets } from './Presets.ts'

export type { Profile }

/** What the callback needs to finish a login its start began. */
export type Checks = { state: string; codeVerifier: string; nonce: string | undefined }

export type Provider = {
  /** The provider's authorization URL for a new login, and the checks to keep for its callback. */
  begin(redirectUri: string): Promise<{ url: URL; checks: Checks }>
  /**
   * Trades the code of `callbackUrl` (the registered redirect URI with the provider's answer as its query,
   * whether it came as one or as a posted form) for the profile.
   */
  finish(callbackUrl: URL, checks: Checks): Promise<Profile>
}

/**
 * The share of the API's request time-out each call to a provider may take: the callback makes up to three
 * in a row (token, then keys or the user endpoints, GitHub's two at once), and all of them end before the
 * request times out (3 s each under the default 10 s), so a slow provider still ends in a redirect to the
 * modal rather than a bare 503.
 */
const shareOfRequest = 0.3

// GitHub's API refuses a request without a User-Agent; every provider is told who asks.
const userAgent = 'airlock-api'

type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>

/** One implementation per kind: whether it sends a nonce, where the profile is read. */
type Kind = {
  nonce: boolean
  profile(configuration: client.Configuration, tokens: Tokens, provider: Settings): Promise<Profile>
}

type Settings = SocialProviderConfig & { id: SocialProvider }

const kinds: Record<SocialProviderConfig['kind'], Kind> = {
  oidc: {
    nonce: true,
    profile: async (_configuration, tokens) => idTokenProfile(tokens.claims()),
  },
  oauth2: {
    nonce: false,
    async profile(configuration, tokens, settings) {
      const preset = presets[settings.id]
      const headers = { accept: 'application/json', ...preset.headers, 'user-agent': userAgent }
      const ask: Ask = async (url) => {
        const response = await client.fetchProtectedResource(
          configuration,
          tokens.access_token,
          url,
          'GET',
          null,
          new Headers(headers),
        )
        if (response.ok) return response.json()
        await response.body?.cancel()
        throw new Error(`${url} answered ${response.status}`)
      }
      return preset.user(ask, new URL(settings.userinfoUrl ?? ''))
    },
  },
}

/**
 * A provider's client; it reads the issuer's discovery document at the first login (again after a
 * failure), unless the configuration names the endpoints. Plain http is allowed only for an issuer on
 * loopback: the development provider. `requestTimeoutMs` is the API's (`limits.requestTimeoutMs`).
 * @example const google = Providers.create('google', config.social.providers.google, 10_000)
 */
export function create(id: SocialProvider, config: SocialProviderConfig, requestTimeoutMs: number): Provider {
  const settings: Settings = { ...config, id }
  // openid-client counts its time-outs in seconds.
  const timeoutS = (requestTimeoutMs * shareOfRequest) / 1000
  const kind = kinds[settings.kind]
  const preset = presets[id]
  const scope = settings.scope ?? preset.scope
  const formPost = preset.formPost(scope)
  const { clientSecret } = settings
  const auth =
    preset.clientAuth === 'basic' && clientSecret ? client.ClientSecretBasic(clientSecret) : undefined
  const insecure = isLoopback(settings.issuer)
  let discovered: Promise<client.Configuration> | undefined
  const configure = async () => {
    const { authorizationUrl, tokenUrl } = settings
    if (!authorizationUrl || !tokenUrl)
      return client.discovery(new URL(settings.issuer), settings.clientId, clientSecret, auth, {
        execute: [
          ...(insecure ? [client.allowInsecureRequests] : []),
          // openid-client checks an ID token's claims but, for one from the token endpoint, not its
          // signature unless told to (OpenID Connect Core §3.1.3.7 lets TLS stand in for it). A provider
          // whose TLS is intercepted, or a token endpoint answering on its behalf, would then name anyone.
          ...(settings.kind === 'oidc' ? [client.enableNonRepudiationChecks] : []),
        ],
        timeout: timeoutS,
      })
    const metadata = {
      issuer: settings.issuer,
      authorization_endpoint: authorizationUrl,
      token_endpoint: tokenUrl,
    }
    const configuration = new client.Configuration(metadata, settings.clientId, clientSecret, auth)
    if (insecure) client.allowInsecureRequests(configuration)
    configuration.timeout = timeoutS
    return configuration
  }
  const discover = () => {
    discovered ??= configure().catch((error: unknown) => {
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
        ...(formPost ? { response_mode: 'form_post' } : {}),
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
