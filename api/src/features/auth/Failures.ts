/**
 * Wrong codes over time, per address and purpose: the cap that outlives any one code. A code takes 5 wrong
 * tries and a new one may be asked for every 30 s, so without it an address would take ~14,400 guesses a
 * day. With it, at most {@link limits}: 10 wrong codes in any hour and 30 in any day; past either, the
 * address can neither try a code nor be sent one until the oldest counted failure leaves the window. At 30 a
 * day, a guesser has a 1 in 33,000 chance a day of a 6-digit code.
 *
 * The price is that whoever types an address can lock its owner out for up to a day; no cap on guesses at an
 * address can avoid that, and the owner loses only the email login (a session already open stays open).
 */
import type { Database } from '../../Database.ts'
import type { Purpose } from './Codes.ts'

const hourMs = 3_600_000
const dayMs = 24 * hourMs

/** At most `max` wrong codes within any `windowMs`, per address and purpose. */
export const limits = [
  { windowMs: hourMs, max: 10 },
  { windowMs: dayMs, max: 30 },
] as const

/** How long a failure is kept: the longest window. */
const retentionMs = dayMs

/**
 * Counts a wrong code for the address and purpose.
 * @example await Failures.record(tx, 'ada@example.com', 'login', Date.now())
 */
export async function record(
  db: Pick<Database, 'query'>,
  email: string,
  purpose: Purpose,
  now: number,
): Promise<void> {
  await db.query('insert into auth_code_failures (email, purpose, failed_at) values ($1, $2, $3)', [
    email,
    purpose,
    now,
  ])
}

/**
 * How long the address must wait before it may try or be sent a code of this purpose: 0 while every window
 * holds fewer than its `max`, else until the `max`-th latest failure of the fullest window leaves it.
 * @example const waitMs = await Failures.blockedFor(tx, email, 'login', Date.now())
 */
export async function blockedFor(
  db: Pick<Database, 'query'>,
  email: string,
  purpose: Purpose,
  now: number,
): Promise<number> {
  let waitMs = 0
  for (const { windowMs, max } of limits) {
    const [row] = await db.query<{ failed_at: string }>(
      `select failed_at from auth_code_failures
       where email = $1 and purpose = $2 and failed_at > $3
       order by failed_at desc offset $4 limit 1`,
      [email, purpose, now - windowMs, max - 1],
    )
    if (row) waitMs = Math.max(waitMs, Number(row.failed_at) + windowMs - now)
  }
  return waitMs
}

/** Forgets failures older than the longest window. */
export async function prune(db: Pick<Database, 'query'>, now: number): Promise<void> {
  await db.query('delete from auth_code_failures where failed_at <= $1', [now - retentionMs])
}
