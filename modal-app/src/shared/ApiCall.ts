/**
 * One call to the Airlock API from a lazily loaded feature (swaps, names): the path on the project's
 * endpoint, a time-out, the answer parsed with the API's own contract, and a refusal turned into an
 * {@link ApiCallError} carrying the API's words and status. The first chunk's client (`api/Api.ts`, with its
 * retries) stays apart, so features do not pull it in.
 */
import { Errors } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'

/** A call that hangs this long is given up. */
const timeoutMs = 10_000

/** The API refused (`status` and its words), could not be reached (`status` 0) or answered nonsense. */
export class ApiCallError extends Error {
  override name = 'ApiCallError'
  constructor(
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export type CallOptions = {
  /** Query parameters beside the project's; undefined ones are left out. */
  query?: Record<string, string | undefined> | undefined
  /** A JSON body: the call is then a POST. */
  body?: unknown
  /** What an unreachable API and an unexpected answer are called where the visitor reads it. */
  texts: { unreachable: string; unexpected: string }
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined
}

/**
 * @example
 * const { quotes } = await ApiCall.call(endpoint, '/v1/convert/quotes', Contract.swapQuotesAnswer, { query, texts })
 */
export async function call<T>(
  endpoint: (path: string) => string,
  path: string,
  shape: S.Shape<T>,
  options: CallOptions,
): Promise<T> {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis)
  const url = new URL(endpoint(path))
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined) url.searchParams.set(key, value)
  const { body } = options
  let response: Response
  try {
    response = await fetcher(url.href, {
      method: body === undefined ? 'GET' : 'POST',
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
      ...(body === undefined
        ? {}
        : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    })
  } catch (cause) {
    throw new ApiCallError(options.texts.unreachable, 0, { cause })
  }
  const answer: unknown = await response.json().catch(() => undefined)
  if (!response.ok)
    throw new ApiCallError(Errors.messageOf(answer, `HTTP status code: ${response.status}`), response.status)
  const parsed = S.parse(shape, answer)
  if (!parsed.ok) throw new ApiCallError(options.texts.unexpected, response.status)
  return parsed.value
}
