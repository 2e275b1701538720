/**
 * The development sign-in provider for social login: a real OpenID provider (oidc-provider) on loopback
 * standing in for the providers of SPEC §5, with one client per provider shape the API supports. `google` is
 * OpenID Connect (an ID token with `email`, `email_verified`, `name`, `picture`); `github` is used as GitHub
 * is, plain OAuth 2.0 whose user comes from a user endpoint (here its userinfo, `/me`: `sub` for GitHub's
 * `id`, `preferred_username` for its `login`, `email`). Both require PKCE (S256) and redirect only to the
 * API's callback. Its own login and consent pages take any login name, which becomes the `sub`; the email
 * is `<login>@<provider>.test`, verified unless the name starts with `unverified`. It lives with the API
 * (exported as `@airlock/api/oidc-dev`) so the API's own tests and the dev stack run the same provider: devnet
 * depends on the API, not the other way round.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
// @ts-expect-error oidc-provider ships no type declarations; `ProviderClass` below is the part used here.
import ImportedProvider from 'oidc-provider'
import type { Config } from '../../../Config.ts'

type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => { callback(): (req: IncomingMessage, res: ServerResponse) => void }
const Provider: ProviderClass = ImportedProvider

/** The provider shapes it stands in for, by the API's provider ids. */
export const shapes = ['google', 'github'] as const
export type Shape = (typeof shapes)[number]

export type StartOptions = {
  /** Where the API is reached: each client redirects only to `${apiUrl}/v1/auth/social/<provider>/callback`. */
  apiUrl: string
  /** 0 picks a free one. @default 8795 */
  port?: number
  /** Interface it binds; the issuer is on 127.0.0.1 either way. @default '127.0.0.1' */
  host?: string
}

export type Instance = {
  /** `http://127.0.0.1:<port>`, what the API discovers it by. */
  issuer: string
  clients: Record<Shape, { clientId: string; clientSecret: string }>
  stop(): Promise<void>
}

export const defaultPort = 8795

/**
 * @example
 * const oidc = await Oidc.start({ apiUrl: 'http://127.0.0.1:8787', port: 0 })
 * const config = { ...apiConfig, social: Oidc.socialConfig(oidc) }
 * await oidc.stop()
 */
export async function start(options: StartOptions): Promise<Instance> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end()
  const server = createServer((req, res) => handler(req, res))
  const port = options.port ?? defaultPort
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`sign-in provider port ${port} is already in use`, { cause: error })
          : error,
      ),
    )
    server.listen(port, options.host ?? '127.0.0.1', resolve)
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const secret = () => randomBytes(24).toString('base64url')
  const clients = Object.fromEntries(
    shapes.map((shape) => [shape, { clientId: `airlock-${shape}`, clientSecret: secret() }]),
  ) as Instance['clients']
  const provider = new Provider(issuer, {
    clients: shapes.map((shape) => ({
      client_id: clients[shape].clientId,
      client_secret: clients[shape].clientSecret,
      redirect_uris: [`${options.apiUrl}/v1/auth/social/${shape}/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture', 'preferred_username'],
    },
    // Claims in the ID token too, as Google's, not only at the userinfo endpoint.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    findAccount: (ctx: { oidc: { client?: { clientId: string } } }, sub: string) => ({
      accountId: sub,
      claims: () =>
        claimsOf(sub, ctx.oidc.client?.clientId === clients.github.clientId ? 'github' : 'google'),
    }),
    jwks: { keys: [signingKey()] },
    cookies: { keys: [secret()] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
  })
  handler = provider.callback()
  let stopping: Promise<void> | undefined
  return {
    issuer,
    clients,
    stop: () => {
      stopping ??= new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
      return stopping
    },
  }
}

/**
 * The API's `social` block for a running provider: `google` as OpenID Connect, `github` as OAuth 2.0 reading
 * the userinfo endpoint (with `openid` in the scope, which oidc-provider's userinfo needs).
 */
export function socialConfig(instance: Instance) {
  const { issuer, clients } = instance
  return {
    providers: {
      google: { issuer, ...clients.google, kind: 'oidc' as const },
      github: {
        issuer,
        ...clients.github,
        kind: 'oauth2' as const,
        userinfoUrl: `${issuer}/me`,
        scope: 'openid email profile',
      },
    },
  } satisfies NonNullable<Config['social']>
}

/** Google gives no handle, GitHub its login; a name starting with `unverified` gets an unverified email. */
function claimsOf(sub: string, shape: Shape) {
  const claims = {
    sub,
    email: `${sub}@${shape}.test`,
    email_verified: !sub.startsWith('unverified'),
    name: sub,
    picture: `https://${shape}.test/${encodeURIComponent(sub)}.png`,
  }
  return shape === 'github' ? { ...claims, preferred_username: sub } : claims
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid: 'devnet', alg: 'RS256', use: 'sig' }
}

export type SignInOptions = {
  /** Cancel on the consent page instead: the provider then answers `error=access_denied`. */
  decline?: boolean
}

/**
 * Goes through the provider's pages as a browser would (fetch, its cookies, redirects one by one): opens
 * `authorizationUrl`, logs in as `login`, consents. Resolves with the URL the provider sends the browser
 * to next, off the provider: the API's callback with `code` and `state`.
 * @example
 * const callback = await Oidc.signIn(startResponse.headers.get('location'), 'ada')
 */
export async function signIn(authorizationUrl: string, login: string, options: SignInOptions = {}) {
  const cookies = new Map<string, string>()
  const origin = new URL(authorizationUrl).origin
  let next: { url: string; body?: URLSearchParams } = { url: authorizationUrl }
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      ...(next.body ? { body: next.body } : {}),
    })
    keep(cookies, response)
    const location = response.headers.get('location')
    if (location) {
      const target = new URL(location, next.url)
      if (target.origin !== origin) return target
      next = { url: target.href }
      continue
    }
    const page = await response.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1]
    if (!response.ok || !action || !prompt)
      throw new Error(`the provider answered ${response.status}: ${page}`)
    const url = new URL(action.replaceAll('&amp;', '&'), next.url).href
    next =
      prompt === 'consent' && options.decline
        ? { url: `${url}/abort` }
        : { url, body: new URLSearchParams({ prompt, login, password: 'any' }) }
  }
  throw new Error('the provider kept redirecting')
}

/** The cookies a response sets or clears (one host, so names are enough). */
function keep(cookies: Map<string, string>, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';')
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    const cleared = attributes.some((attribute) =>
      /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute),
    )
    if (cleared || at === pair.length - 1) cookies.delete(name)
    else cookies.set(name, pair.slice(at + 1))
  }
}
