/**
 * A provider's JSON API as the adapters call it: a time-out, a 5xx or 429 (or an unreachable host, or a body
 * of an unknown shape) is {@link ProviderUnavailable}, so the routes fall back; another 4xx is
 * {@link ProviderRefusal} with the provider's message.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { ProviderRefusal, ProviderUnavailable } from './Provider.ts'

/** How long the API waits for the provider before it falls back. */
const timeoutMs = 5_000

const refusal = S.object({ message: S.string(500, 1) })

/**
 * Calls `url` and parses the answer with `shape`.
 * @example const currencies = await call('moonpay', url, S.array(currency))
 */
export async function call<T>(
  provider: string,
  url: URL,
  shape: S.Shape<T>,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown } = {},
): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    throw new ProviderUnavailable(`${provider} cannot be reached`, { cause: error })
  }
  const body: unknown = await response.json().catch(() => undefined)
  if (response.status >= 500 || response.status === 429)
    throw new ProviderUnavailable(`${provider} answered ${response.status}`)
  if (!response.ok) {
    const message = S.parse(refusal, body)
    throw new ProviderRefusal(message.ok ? message.value.message : `${provider} refused the request`)
  }
  const parsed = S.parse(shape, body)
  if (!parsed.ok) throw new ProviderUnavailable(`${provider} answered an unknown shape: ${parsed.message}`)
  return parsed.value
}

/** A decimal the provider may write as a number (MoonPay) or a string (Coinbase), as a plain decimal string. */
export const decimal: S.Shape<string> = (value, path) => {
  const text = typeof value === 'number' && Number.isFinite(value) ? numberText(value) : value
  return S.string(40, 1, /^\d{1,20}(\.\d{1,18})?$/)(text, path)
}

/** A non-negative number without an exponent, as JSON numbers like 1e-7 would otherwise read. */
function numberText(value: number): string {
  const text = String(value)
  return /e/i.test(text) ? value.toFixed(18).replace(/\.?0+$/, '') : text
}

/** A webhook's body read with `shape`, or `undefined` for one that is not JSON of that shape. */
export function eventOf<T>(body: string, shape: S.Shape<T>): T | undefined {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return undefined
  }
  const parsed = S.parse(shape, json)
  return parsed.ok ? parsed.value : undefined
}
