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
