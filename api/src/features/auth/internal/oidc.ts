/**
 * The development sign-in provider for social login: a real OpenID provider (oidc-provider) on loopback
 * standing in for the providers of docs/behaviour.md §5, with one client per provider, each of its provider's shape
 * (`oidcShapes.ts`): `google` and `apple` are OpenID Connect (Apple answering by `form_post` and writing
 * `email_verified` as a string); `github`, `discord`, `facebook` and `x` are OAuth 2.0 whose user endpoints
 * answer their providers' JSON, under `/shapes/<provider>/…` (GitHub's token endpoint answering JSON only
 * to `Accept: application/json`, as GitHub's does). All require PKCE (S256) and redirect only to the API's
 * callback. Its own login and consent pages take any login name, which becomes the subject; the email is
 * `<login>@<provider>.test`, verified unless the name starts with `unverified` (GitHub's addresses: see
 * `oidcShapes.ts`). It lives with the API (exported as `@airlock/api/oidc-dev`) so the API's own tests and
 * the dev stack run the same provider: devnet depends on the API, not the other way round.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
// @ts-expect-error oidc-provider ships no type declarations; `ProviderClass` below is the part used here.
import ImportedProvider from 'oidc-provider'
import type { Config } from '../../../Config.ts'
import * as Shapes from './oidcShapes.ts'
import { type Shape, shapes } from './oidcShapes.ts'

type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => {
  callback(): (req: IncomingMessage, res: ServerResponse) => void
  use(middleware: (ctx: Context, next: () => Promise<void>) => Promise<void>): void
  AccessToken: { find(value: string): Promise<Shapes.Token | undefined> }
}
const Provider: ProviderClass = ImportedProvider
/** The part of oidc-provider's (Koa's) context the middleware below reads and writes. */
type Context = {
  path: string
  headers: IncomingMessage['headers']
  oidc?: { client?: { clientId: string } }
  status: number
  body: unknown
  type: string
}

// The stand-in Farcaster relay goes out beside the sign-in provider, under the package's one export of
// development sign-in services.
export * as FarcasterRelay from './farcasterRelay.ts'
export { type Shape, shapes } from './oidcShapes.ts'

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
  // Idle connections stay open well past a client's own keep-alive (undici drops its after 4 s): with Node's
  // 5 s, a client starved past that window reused a connection the provider had just closed (ECONNRESET).
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => handler(req, res))
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
  const shapeOf = (clientId: string | undefined) =>
    shapes.find((shape) => clients[shape].clientId === clientId)
  const provider = new Provider(issuer, {
    clients: shapes.map((shape) => ({
      client_id: clients[shape].clientId,
      client_secret: clients[shape].clientSecret,
      redirect_uris: [`${options.apiUrl}/v1/auth/social/${shape}/callback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: Shapes.clientAuth[shape],
    })),
    pkce: { required: () => true },
    // The providers' own scopes, granted as asked, so their user endpoints can answer by them.
    scopes: ['openid', ...Shapes.scopes],
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
      claims: () => Shapes.claimsOf(sub, shapeOf(ctx.oidc.client?.clientId) ?? 'google'),
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
  // oidc-provider takes a client's secret either way; X takes a confidential client's only as HTTP Basic.
  provider.use(async (ctx, next) => {
    await next()
    const basic = /^basic /i.test(ctx.headers.authorization ?? '')
    if (ctx.path !== '/token' || ctx.oidc?.client?.clientId !== clients.x.clientId || basic) return
    ctx.status = 401
    ctx.body = { error: 'invalid_client', error_description: 'the client secret goes in HTTP Basic' }
  })
  // GitHub answers its token endpoint as a form unless asked for JSON.
  provider.use(async (ctx, next) => {
    await next()
    const json = /application\/json/i.test(ctx.headers.accept ?? '')
    if (ctx.path !== '/token' || ctx.oidc?.client?.clientId !== clients.github.clientId || json) return
    if (typeof ctx.body !== 'object' || ctx.body === null) return
    const fields = Object.entries(ctx.body).map(([key, value]) => [key, String(value)])
    ctx.body = new URLSearchParams(fields).toString()
    ctx.type = 'application/x-www-form-urlencoded'
  })
  const callback = provider.callback()
  handler = (req, res) => {
    const url = new URL(req.url ?? '/', issuer)
    if (!url.pathname.startsWith('/shapes/')) return callback(req, res)
    Shapes.userEndpoint(url, req.headers, (value) => provider.AccessToken.find(value), shapeOf)
      .then(({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body))
      .catch((error: unknown) => res.writeHead(500).end(String(error)))
  }
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
 * The API's `social` block for a running provider: every documented provider (docs/behaviour.md §1), each in its real shape. `google`
 * and `apple` are discovered OpenID Connect; the OAuth 2.0 ones name their endpoints as their real providers
 * need (they publish no discovery document) and read their user endpoints under `/shapes/…` (GitHub's
 * `/user`, whose `/user/emails` the API asks beside it).
 */
export function socialConfig(instance: Instance) {
  const { issuer, clients } = instance
  const oauth2 = (shape: Shape, userinfoUrl: string) => ({
    issuer,
    ...clients[shape],
    kind: 'oauth2' as const,
    authorizationUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    userinfoUrl,
  })
  return {
    providers: {
      google: { issuer, ...clients.google, kind: 'oidc' as const },
      x: oauth2('x', `${issuer}/shapes/x/2/users/me?user.fields=confirmed_email`),
      discord: oauth2('discord', `${issuer}/shapes/discord/users/@me`),
      github: oauth2('github', `${issuer}/shapes/github/user`),
      apple: { issuer, ...clients.apple, kind: 'oidc' as const },
      facebook: oauth2('facebook', `${issuer}/shapes/facebook/me?fields=id,name,email`),
    },
  } satisfies NonNullable<Config['social']>
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid: 'devnet', alg: 'RS256', use: 'sig' }
}

/**
 * Where the provider sends the browser back: the API's callback URL with the provider's answer as its
 * query. `method` is `POST` when the provider answered with a form for the browser to post there
 * (`response_mode=form_post`, Apple's) instead of a redirect: the same fields, as the form's body.
 */
export type Callback = URL & { method: 'GET' | 'POST' }

export type SignInOptions = {
  /** Cancel on the consent page instead: the provider then answers `error=access_denied`. */
  decline?: boolean
}

/**
 * Goes through the provider's pages as a browser would (fetch, its cookies, redirects one by one): opens
 * `authorizationUrl`, logs in as `login`, consents. Resolves with where the provider sends the browser
 * next, off the provider: the API's callback with `code` and `state`.
 * @example
 * const callback = await Oidc.signIn(startResponse.headers.get('location'), 'ada')
 */
export async function signIn(
  authorizationUrl: string,
  login: string,
  options: SignInOptions = {},
): Promise<Callback> {
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
      if (target.origin !== origin) return Object.assign(target, { method: 'GET' as const })
      next = { url: target.href }
      continue
    }
    const page = await response.text()
    const posted = formPost(page, next.url)
    if (posted && posted.origin !== origin) return posted
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

/** The target of a `response_mode=form_post` page (oidc-provider's: hidden inputs, posted by a script). */
function formPost(page: string, base: string): Callback | undefined {
  const action = /<form method="post" action="([^"]+)">/.exec(page)?.[1]
  if (!action) return undefined
  const target = new URL(htmlText(action), base)
  for (const [, name = '', value = ''] of page.matchAll(
    /<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g,
  ))
    target.searchParams.append(htmlText(name), htmlText(value))
  return Object.assign(target, { method: 'POST' as const })
}

/** Undoes oidc-provider's `htmlSafe`. */
function htmlText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" }
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => entities[entity] ?? '')
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
