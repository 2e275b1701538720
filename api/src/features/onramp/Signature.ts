/**
 * Timestamped webhook signatures, as MoonPay and Stripe make them: a header `t=<unix seconds>,s=<hex
 * HMAC-SHA256(secret, t + '.' + body)>`. The timestamp is signed with the body, so an old delivery replayed
 * verifies but is refused as stale; within the tolerance, a replay is harmless because an order changes
 * once (`Orders.apply`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** How old a signature may be: Stripe's and MoonPay's tolerance. */
const toleranceMs = 5 * 60_000

/** Checks `header` against `body`: `ok`, `invalid` (absent, malformed or wrong) or `stale`. */
export function verify(
  header: string | null | undefined,
  body: string,
  secret: string,
  nowMs: number,
): 'ok' | 'invalid' | 'stale' {
  const match = /^t=(\d{1,12}),s=([0-9a-f]{64})$/.exec(header?.trim() ?? '')
  if (!match?.[1] || !match[2]) return 'invalid'
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest()
  if (!timingSafeEqual(Buffer.from(match[2], 'hex'), expected)) return 'invalid'
  return Math.abs(nowMs - Number(match[1]) * 1000) > toleranceMs ? 'stale' : 'ok'
}

/**
 * Coinbase's webhook signatures (Hook0's, which CDP's webhooks use): a header `X-Hook0-Signature:
 * t=<unix seconds>,h=<header names, space-separated>,v1=<hex HMAC-SHA256>` over
 * `t + '.' + h + '.' + the named headers' values joined by '.' + '.' + body`, so the event's id and type
 * headers are signed with the body. Refused as stale past the same tolerance.
 */
export function verifyHook0(
  headers: Headers,
  body: string,
  secret: string,
  nowMs: number,
): 'ok' | 'invalid' | 'stale' {
  const fields = new Map(
    (headers.get('x-hook0-signature') ?? '').split(',').map((part) => {
      const at = part.indexOf('=')
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const
    }),
  )
  const [t, h = '', v1] = [fields.get('t'), fields.get('h'), fields.get('v1')]
  if (!t || !/^\d{1,12}$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return 'invalid'
  const names = h.split(' ').filter(Boolean)
  const values = names.map((name) => headers.get(name) ?? '')
  const signed = [t, h, values.join('.'), body].join('.')
  const expected = createHmac('sha256', secret).update(signed).digest()
  if (!timingSafeEqual(Buffer.from(v1, 'hex'), expected)) return 'invalid'
  return Math.abs(nowMs - Number(t) * 1000) > toleranceMs ? 'stale' : 'ok'
}
