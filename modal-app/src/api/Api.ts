/**
 * The modal's client of the Airlock API (`api/`): the project's allowed origins, the supported chains and
 * balances, the wallet registry, sign-in and analytics. Every call carries `projectId`, `st` and `sv`, the
 * API's common query; every answer is parsed with the API's own contract (`@airlock/api/contract`); an
 * attempt that takes longer than 10 s is aborted, and a failed call is tried again where `Retry.ts` says.
 */
import * as Contract from '@airlock/api/contract'
import { Async, Errors, Schema } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import { texts } from '../shared/texts.ts'
import * as Retry from './Retry.ts'

/** SDK type and version, sent with every call. */
const sdkType = 'airlock'
const sdkVersion = '0.1.0'
/** A call still unanswered after 10 s is abandoned, so a stalled API cannot keep a view spinning. */
const timeoutMs = 10_000

/** Where the API is when the page does not say: the local service of `npm start`. */
export const defaultBaseUrl = 'http://127.0.0.1:8787'

/** One balance, as the API answers it (its shape is the API's contract). */
export type TokenBalance = Contract.TokenBalance

/** A project's allowed origin patterns, or why the modal cannot have them. */
export type Origins = { allowed: string[] } | { refused: 'project' | 'unreachable' }

/** A chain the API serves: its name and currency, never its RPC URL. */
export type SupportedChain = Contract.SupportedChain
/** One transaction of an account's history, as the API lists it. */
export type HistoryItem = Contract.HistoryAnswer['data'][number]
/**
 * A page of history. A page that could not be read is empty with no cursor and says why in `error`
 * (docs/behaviour.md §8: 'Failed to fetch transactions'), so a list shows what it has and stops paging.
 */
export type HistoryPage = { data: HistoryItem[]; next: string | null; error?: string | undefined }

/** One NFT an account holds (its image only ever a `data:image/…` URI), and a page of them. */
export type Nft = Contract.Nft
export type NftPage = { data: Nft[]; next: string | null }

/** An address's name and avatar, each `null` when it has none. */
export type Identity = Contract.IdentityAnswer

/** A wallet listing entry of the registry. */
export type Listing = Contract.Listing

/** A page of the registry: wallets and how many match in all. */
type WalletPage = { count: number; data: Listing[] }

type WalletQuery = {
  page: number
  entries: number
  search?: string | undefined
  include?: readonly string[] | undefined
  exclude?: readonly string[] | undefined
  chains?: readonly string[] | undefined
}

/** What anyone may read of an account's sessions: which exist, and until when. */
type SessionSummary = Contract.SessionSummary

// The API writes "no expiry" as null; the host's session shape leaves it out.
function toSession(answer: Contract.SessionAnswer): Schema.Session {
  const { expiresAt, ...rest } = answer
  const parsed = S.parse(Schema.session, expiresAt ? { ...rest, expiresAt } : rest)
  if (!parsed.ok) throw new ApiError(`Unexpected session: ${parsed.message}`)
  return parsed.value
}

/** The API answered with an error status, or something else than expected. */
class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    message: string,
    /** The HTTP status, when the API answered with an error status. */
    readonly status?: number,
  ) {
    super(message)
  }
}

/** The chain is not among the API's supported chains: answered without a balance call. */
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
  /** The project's allowed origin patterns, or why there are none: an unknown project, an API out of reach. */
  origins(): Promise<Origins>
  /** The chains the API serves, by name (an API older than this list answers none). */
  supportedChains(): Promise<SupportedChain[]>
  /** Native and token balances of an address on a CAIP-2 chain; `fresh` skips the API's 30 s cache. */
  balances(chainId: string, address: string, options?: { fresh?: boolean }): Promise<TokenBalance[]>
  /**
   * A page of an account's transactions on one chain, newest first; `cursor` is the previous page's `next`.
   * Never throws: a failure is an empty page with its `error`.
   */
  history(
    address: string,
    options: { chainId: string; cursor?: string | null | undefined },
  ): Promise<HistoryPage>
  /** A page of an account's NFTs on one EVM chain (`cursor`: the previous `next`); fails with the API's text. */
  nfts(address: string, options: { chainId: string; cursor?: string | null | undefined }): Promise<NftPage>
  /** The name and avatar of an EVM address (docs/behaviour.md §7); fails with the API's status and text. */
  identity(address: string, options?: { fresh?: boolean }): Promise<Identity>
  /** A page of the wallet registry. */
  wallets(query: WalletQuery): Promise<WalletPage>
  /** Where a registry image is. */
  imageUrl(imageId: string): string
  /** The URL of an API path with the project's query, for a feature that speaks another protocol there (JSON-RPC, Esplora). */
  endpoint(path: string): string
  /** A single-use sign-in nonce. */
  nonce(): Promise<string>
  /** Verifies a signed sign-in message and opens a session; fails with the API's status and text. */
  signIn(message: string, signature: string): Promise<Schema.Session>
  /** The account's active sessions (revoked and expired ones are not), by id. */
  sessions(account: string): Promise<SessionSummary[]>
  /** Whether the project enabled analytics (asked once; an unreadable answer counts as off). */
  analyticsEnabled(): Promise<boolean>
  /**
   * Records an analytics event (skipped unless the project enabled analytics). Never throws:
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
  /** How failed calls are tried again (tests give it a clock). */
  retry?: Retry.RetryOptions | undefined
}

/**
 * @example
 * const api = Api.create({ baseUrl: 'http://127.0.0.1:8787', projectId: 'demo' })
 * await api.balances('eip155:31337', '0xf39F…2266')
 */
export function create(options: ClientOptions): Client {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  // One answer for both uses; asked again only after a failure.
  const chainsAnswer = Async.once(() => get('/v1/supported-chains', Contract.supportedChainsAnswer))
  const supported = async () => new Set((await chainsAnswer()).http)

  async function get<T>(
    path: string,
    shape: S.Shape<T>,
    query: Record<string, string> = {},
    body?: unknown,
    // Reads are safe to repeat; a write is repeated only when the API refused it before doing anything.
    when: Retry.When = body === undefined ? 'failed' : 'refused',
  ): Promise<T> {
    const target = url(path, query)
    const init: RequestInit = {
      credentials: 'omit',
      ...(body === undefined
        ? {}
        : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    }
    const response = await Retry.fetch(fetcher, target, init, when, options.retry)
    if (!response.ok) throw new ApiError(await errorText(response), response.status)
    const parsed = S.parse(shape, await response.json())
    if (!parsed.ok) throw new ApiError(`Unexpected answer from ${target.pathname}: ${parsed.message}`)
    return parsed.value
  }

  let analytics: Promise<boolean> | undefined
  const analyticsEnabled = () =>
    (analytics ??= get('/getAnalyticsConfig', Contract.analyticsAnswer).then(
      (answer) => answer.isAnalyticsEnabled,
      // An unreadable analytics setting counts as off: nothing is sent that the project did not allow.
      () => false,
    ))
  const url = (path: string, query: Record<string, string> = {}) => {
    const target = new URL(path, options.baseUrl)
    const params = { projectId: options.projectId, st: sdkType, sv: sdkVersion, ...query }
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value)
    return target
  }

  return {
    async origins() {
      try {
        return { allowed: (await get('/projects/v1/origins', Contract.originsAnswer)).allowedOrigins }
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return { refused: 'project' }
        console.error('[airlock] Could not read the project’s allowed origins.', error)
        return { refused: 'unreachable' }
      }
    },
    async supportedChains() {
      return (await chainsAnswer()).chains ?? []
    },
    async balances(chainId, address, { fresh = false } = {}) {
      if (!(await supported()).has(chainId)) throw new UnsupportedNetworkError(chainId)
      const query: Record<string, string> = { chainId, currency: 'usd' }
      if (fresh) query.forceUpdate = 'true'
      const answer = await get(
        `/v1/account/${encodeURIComponent(address)}/balance`,
        Contract.balancesAnswer,
        query,
      )
      // Token balances whose decimals are "0" are low quality (spam or misconfigured tokens): not shown.
      return answer.balances.filter((balance) => balance.quantity.decimals !== '0')
    },
    async history(address, { chainId, cursor }) {
      if (!address) return { data: [], next: null, error: texts.errors.noAccountForTransactions }
      const query: Record<string, string> = { chainId }
      if (cursor) query.cursor = cursor
      try {
        const answer = await get(
          `/v1/account/${encodeURIComponent(address)}/history`,
          Contract.historyAnswer,
          query,
        )
        // The API already leaves these out; a list must hold to it whichever API it talks to.
        const data = answer.data.filter((item) => item.metadata.chain === chainId && !spamOnly(item))
        return { data, next: answer.next }
      } catch (error) {
        console.warn('[airlock] Could not read the transactions.', error)
        return { data: [], next: null, error: texts.errors.transactionsUnavailable }
      }
    },
    nfts(address, { chainId, cursor }) {
      const query: Record<string, string> = { chainId }
      if (cursor) query.cursor = cursor
      return get(`/v1/account/${encodeURIComponent(address)}/nfts`, Contract.nftsAnswer, query)
    },
    identity: (address, options) =>
      get(
        `/v1/identity/${encodeURIComponent(address)}`,
        Contract.identityAnswer,
        options?.fresh ? { forceUpdate: 'true' } : {},
      ),
    wallets(query) {
      const params: Record<string, string> = { page: String(query.page), entries: String(query.entries) }
      if (query.search) params.search = query.search
      if (query.include?.length) params.include = query.include.join(',')
      if (query.exclude?.length) params.exclude = query.exclude.join(',')
      if (query.chains?.length) params.chains = query.chains.join(',')
      return get('/getWallets', Contract.walletsAnswer, params)
    },
    imageUrl: (imageId) => url(`/getWalletImage/${encodeURIComponent(imageId)}`).href,
    endpoint: (path) => url(path).href,
    async nonce() {
      // Asking again only leaves an unused nonce to expire.
      return (await get('/v1/siwx/nonce', Contract.nonceAnswer, {}, {}, 'failed')).nonce
    },
    async signIn(message, signature) {
      return toSession(await get('/v1/sessions', Contract.sessionAnswer, {}, { message, signature }))
    },
    async sessions(account) {
      return (await get(`/v1/sessions/${encodeURIComponent(account)}`, Contract.sessionsAnswer)).sessions
    },
    analyticsEnabled,
    async track(event, page) {
      try {
        if (!(await analyticsEnabled())) return
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

/** 'HTTP status code: N', the text wallets' dApps already match on, with the API's own message when it sent one. */
async function errorText(response: Response): Promise<string> {
  const status = `HTTP status code: ${response.status}`
  try {
    const message = Errors.messageOf(await response.json(), '')
    return message ? `${status}: ${message}` : status
  } catch {
    return status
  }
}

/** Spam, as docs/behaviour.md has it: a transaction whose transfers are all of spam NFTs. */
function spamOnly(item: HistoryItem): boolean {
  return (
    item.transfers.length > 0 && item.transfers.every((transfer) => transfer.nft_info?.flags.is_spam === true)
  )
}
