/**
 * The modal's client of the Airlock API (`api/`): the project's allowed origins, the supported chains and
 * balances. Every GET carries `projectId`, `st` and `sv` (SPEC §7); every answer is parsed with a shape,
 * and a call that takes longer than SPEC §9's 10 s is aborted.
 */
import { Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'

/** SDK type and version, sent with every call. */
export const sdkType = 'airlock'
export const sdkVersion = '0.1.0'
/** SPEC §9: the default HTTP time-out. */
export const timeoutMs = 10_000

/** Where the API is when the page does not say: the local service of `npm start`. */
export const defaultBaseUrl = 'http://127.0.0.1:8787'

/** SPEC §3's token balance, as the API answers it. */
export const tokenBalance = S.object({
  name: S.string(200),
  symbol: S.string(40),
  chainId: S.string(80),
  address: S.optional(S.string(200)),
  value: S.number(),
  price: S.number(),
  quantity: S.object({ decimals: S.string(4, 1, /^\d+$/), numeric: S.string(100, 1, /^\d+(\.\d+)?$/) }),
  iconUrl: S.string(2048),
})
export type TokenBalance = S.Infer<typeof tokenBalance>

/** SPEC §3's wallet listing entry. */
export const listing = S.object({
  id: S.string(80, 1),
  name: S.string(100, 1),
  image_id: S.string(80, 1, /^[\w-]+$/),
  rdns: S.optional(S.nullable(S.string(128))),
  chains: S.array(S.string(80), 200),
  mobile_link: S.optional(S.nullable(S.string(2048))),
  desktop_link: S.optional(S.nullable(S.string(2048))),
  webapp_link: S.optional(S.nullable(S.string(2048))),
})
export type Listing = S.Infer<typeof listing>
const walletsAnswer = S.object({ count: S.number(0, 1e9), data: S.array(listing, 100) })

/** A page of the registry: wallets and how many match in all. */
export type WalletPage = { count: number; data: Listing[] }

export type WalletQuery = {
  page: number
  entries: number
  search?: string | undefined
  include?: readonly string[] | undefined
  exclude?: readonly string[] | undefined
  chains?: readonly string[] | undefined
}

const balancesAnswer = S.object({ balances: S.array(tokenBalance, 500) })
const chainsAnswer = S.object({ http: S.array(S.string(80), 1000), ws: S.array(S.string(80), 1000) })
// The API writes "no expiry" as null; the host's session shape leaves it out.
const sessionAnswer = S.object({
  id: S.string(64, 1),
  address: S.string(220, 1),
  chainId: S.string(80, 1),
  message: S.string(8192, 1),
  signature: S.string(4096, 1),
  issuedAt: S.string(64, 1),
  expiresAt: S.optional(S.nullable(S.string(64))),
  token: S.string(128, 16),
})
/** What anyone may read of an account's sessions: which exist, and until when. */
const sessionSummary = S.object({ id: S.string(64, 1), expiresAt: S.optional(S.nullable(S.string(64))) })
const sessionsAnswer = S.object({ sessions: S.array(sessionSummary, 100) })
export type SessionSummary = S.Infer<typeof sessionSummary>
const nonceAnswer = S.object({ nonce: S.string(64, 8, /^[A-Za-z0-9]+$/) })

function toSession(answer: S.Infer<typeof sessionAnswer>): Schema.Session {
  const { expiresAt, ...rest } = answer
  const parsed = S.parse(Schema.session, expiresAt ? { ...rest, expiresAt } : rest)
  if (!parsed.ok) throw new ApiError(`Unexpected session: ${parsed.message}`)
  return parsed.value
}

const analyticsAnswer = S.object({ isAnalyticsEnabled: S.boolean })
const originsAnswer = S.object({ allowedOrigins: S.array(S.string(256), 1000) })

/** The API answered with an error status, or something else than expected. */
export class ApiError extends Error {
  override name = 'ApiError'
}

/** The chain is not among the API's supported chains (SPEC §5: answered without a call). */
export class UnsupportedNetworkError extends Error {
  override name = 'UnsupportedNetworkError'
}

/**
 * The API's base URL: the modal origin's HTML names it in `<meta name="airlock:api">` (the service writes
 * it when it serves the page), so one build of the modal runs against any deployment.
 */
export function baseUrlOf(doc: Pick<Document, 'querySelector'>): string {
  const content = doc.querySelector('meta[name="airlock:api"]')?.getAttribute('content') ?? ''
  return /^https?:\/\/[^/\s]+$/.test(content) ? content : defaultBaseUrl
}

export type Client = {
  /** The project's allowed origin patterns; `undefined` when they cannot be had (unknown project, API down). */
  origins(): Promise<string[] | undefined>
  /** Native and token balances of an address on a CAIP-2 chain; `fresh` skips the API's 30 s cache. */
  balances(chainId: string, address: string, options?: { fresh?: boolean }): Promise<TokenBalance[]>
  /** A page of the wallet registry. */
  wallets(query: WalletQuery): Promise<WalletPage>
  /** Where a registry image is. */
  imageUrl(imageId: string): string
  /** A single-use sign-in nonce. */
  nonce(): Promise<string>
  /** Verifies a signed sign-in message and opens a session; fails with the API's text (SPEC §8). */
  signIn(message: string, signature: string): Promise<Schema.Session>
  /** The account's active sessions (revoked and expired ones are not), by id. */
  sessions(account: string): Promise<SessionSummary[]>
  /**
   * Records an analytics event (SPEC §7: skipped unless the project enabled analytics). Never throws:
   * analytics must not break anything.
   */
  track(
    event: { event: string; properties?: Record<string, unknown>; address?: string },
    page: string,
  ): Promise<void>
}

export type ClientOptions = {
  baseUrl: string
  projectId: string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
}

/**
 * @example
 * const api = Api.create({ baseUrl: 'http://127.0.0.1:8787', projectId: 'demo' })
 * await api.balances('eip155:31337', '0xf39F…2266')
 */
export function create(options: ClientOptions): Client {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  let supported: Promise<Set<string>> | undefined

  async function get<T>(
    path: string,
    shape: S.Shape<T>,
    query: Record<string, string> = {},
    body?: unknown,
  ): Promise<T> {
    const target = url(path, query)
    const response = await fetcher(target, {
      signal: AbortSignal.timeout(timeoutMs),
      credentials: 'omit',
      ...(body === undefined
        ? {}
        : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    })
    if (!response.ok) throw new ApiError(await errorText(response))
    const parsed = S.parse(shape, await response.json())
    if (!parsed.ok) throw new ApiError(`Unexpected answer from ${target.pathname}: ${parsed.message}`)
    return parsed.value
  }

  let analytics: Promise<boolean> | undefined
  const url = (path: string, query: Record<string, string> = {}) => {
    const target = new URL(path, options.baseUrl)
    const params = { projectId: options.projectId, st: sdkType, sv: sdkVersion, ...query }
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value)
    return target
  }

  return {
    async origins() {
      try {
        return (await get('/projects/v1/origins', originsAnswer)).allowedOrigins
      } catch (error) {
        console.error('[airlock] Could not read the project’s allowed origins.', error)
        return undefined
      }
    },
    async balances(chainId, address, { fresh = false } = {}) {
      supported ??= get('/v1/supported-chains', chainsAnswer).then(
        (chains) => new Set(chains.http),
        (error: unknown) => {
          supported = undefined
          throw error
        },
      )
      if (!(await supported).has(chainId)) throw new UnsupportedNetworkError(chainId)
      const query: Record<string, string> = { chainId, currency: 'usd' }
      if (fresh) query.forceUpdate = 'true'
      const answer = await get(`/v1/account/${encodeURIComponent(address)}/balance`, balancesAnswer, query)
      // SPEC §5: token balances whose decimals are "0" are low quality.
      return answer.balances.filter((balance) => balance.quantity.decimals !== '0')
    },
    wallets(query) {
      const params: Record<string, string> = { page: String(query.page), entries: String(query.entries) }
      if (query.search) params.search = query.search
      if (query.include?.length) params.include = query.include.join(',')
      if (query.exclude?.length) params.exclude = query.exclude.join(',')
      if (query.chains?.length) params.chains = query.chains.join(',')
      return get('/getWallets', walletsAnswer, params)
    },
    imageUrl: (imageId) => url(`/getWalletImage/${encodeURIComponent(imageId)}`).href,
    async nonce() {
      return (await get('/v1/siwx/nonce', nonceAnswer, {}, {})).nonce
    },
    async signIn(message, signature) {
      return toSession(await get('/v1/sessions', sessionAnswer, {}, { message, signature }))
    },
    async sessions(account) {
      return (await get(`/v1/sessions/${encodeURIComponent(account)}`, sessionsAnswer)).sessions
    },
    async track(event, page) {
      try {
        analytics ??= get('/getAnalyticsConfig', analyticsAnswer).then(
          (answer) => answer.isAnalyticsEnabled,
          // SPEC §7: false on failure.
          () => false,
        )
        if (!(await analytics)) return
        const { origin, host } = new URL(page)
        await fetcher(url('/e'), {
          method: 'POST',
          credentials: 'omit',
          signal: AbortSignal.timeout(timeoutMs),
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            eventId: crypto.randomUUID(),
            url: origin,
            domain: host,
            timestamp: Date.now(),
            props: {
              type: 'track',
              event: event.event,
              properties: event.properties ?? {},
              ...(event.address ? { address: event.address } : {}),
            },
          }),
        })
      } catch (error) {
        console.warn('[airlock] Could not record an analytics event.', error)
      }
    },
  }
}

/** SPEC §8's 'HTTP status code: N', with the API's own message when it sent one. */
async function errorText(response: Response): Promise<string> {
  const status = `HTTP status code: ${response.status}`
  try {
    const body: unknown = await response.json()
    const message = (body as { message?: unknown } | null)?.message
    return typeof message === 'string' && message ? `${status}: ${message}` : status
  } catch {
    return status
  }
}
