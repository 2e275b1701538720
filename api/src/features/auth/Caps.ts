/**
 * Caps on one-time codes over time, beyond a code's own 5 tries and an address's 30 s between codes
 * (`Codes.ts`). Each is a list of windows, at most `max` events within any `windowS` seconds, counted in the
 * database so that every replica counts alike:
 * - codes sent, per client address (`codesPerClient`) and in all (`codes`): one host cannot mail a hundred
 *   addresses a second, nor many hosts flood the mail server;
 * - wrong codes per address and purpose (`wrongCodesPerAddress`), across codes, since each new code brings 5
 *   fresh tries: at 10 an hour and 30 a day, a guesser has about one chance in 33,000 a day of a 6-digit code;
 * - wrong codes per address and purpose from one client (`wrongCodesPerAddressAndClient`), below the above:
 *   one host alone fills its own cap first, so it cannot lock an address's owner out (the address's cap
 *   takes two hosts for an hour, three for a day);
 * - wrong codes per client (`wrongCodesPerClient`), whatever the address, and in all (`wrongCodes`): one host
 *   cannot spread its guesses over many addresses, nor many hosts guess without bound.
 * Past a cap the code is not tried (the right one included) and, for the address's caps, none is sent, until
 * the oldest counted event leaves the window. The caps per address and purpose are checked under the lock of
 * the address's code row, so racing tries count one by one; the others may let a burst of racing requests
 * past their `max` by a few.
 */
import type { Database } from '../../Database.ts'
import type { Purpose } from './Codes.ts'

/** At most `max` events within any `windowS` seconds. */
type Window = { max: number; windowS: number }

export type Caps = {
  codesPerClient: readonly Window[]
  codes: readonly Window[]
  wrongCodesPerAddress: readonly Window[]
  wrongCodesPerAddressAndClient: readonly Window[]
  wrongCodesPerClient: readonly Window[]
  wrongCodes: readonly Window[]
}

const hourS = 3_600
const dayS = 24 * hourS

/**
 * A household or an office behind one address logs in many times an hour, and a busy deployment mails
 * thousands of codes; none of them guesses 5 wrong codes for one address in an hour. Raise `codes` and
 * `wrongCodes` to your traffic (and your mail provider's quota): over them, nobody gets a code.
 */
export const defaults: Caps = {
  codesPerClient: [{ max: 20, windowS: hourS }],
  codes: [{ max: 5_000, windowS: hourS }],
  wrongCodesPerAddress: [
    { max: 10, windowS: hourS },
    { max: 30, windowS: dayS },
  ],
  wrongCodesPerAddressAndClient: [
    { max: 5, windowS: hourS },
    { max: 10, windowS: dayS },
  ],
  wrongCodesPerClient: [{ max: 30, windowS: hourS }],
  wrongCodes: [{ max: 5_000, windowS: hourS }],
}

/** The caps a configuration sets, the {@link defaults} for the rest. */
export function resolve(configured: Partial<Caps> = {}): Caps {
  return { ...defaults, ...configured }
}

/** Who an event is about: the address and purpose of the code, and the client address that asked. */
export type Who = { email: string; purpose: Purpose; client: string }

type Kind = 'sent' | 'wrong'

/**
 * Counts an event.
 * @example await Caps.record(tx, 'wrong', { email, purpose: 'login', client: '203.0.113.7' }, Date.now())
 */
export async function record(db: Pick<Database, 'query'>, kind: Kind, who: Who, now: number): Promise<void> {
  await db.query(
    'insert into auth_code_events (kind, email, purpose, client, at) values ($1, $2, $3, $4, $5)',
    [kind, who.email, who.purpose, who.client, now],
  )
}

/** Takes back a send counted at `at` whose mail never left (the mail server was down). */
export async function forgetSend(db: Pick<Database, 'query'>, who: Who, at: number): Promise<void> {
  await db.query(
    `delete from auth_code_events
     where kind = 'sent' and email = $1 and purpose = $2 and client = $3 and at = $4`,
    [who.email, who.purpose, who.client, at],
  )
}

/** Which caps a step must be under: a code sent, or a code tried. */
export type Step = 'send' | 'try'

/**
 * How long `who` must wait before this step because of wrong codes: 0 while under every cap that applies
 * (a send: the address's, and the address's from this client; a try: those, the client's and the total).
 */
export async function failuresWait(
  db: Pick<Database, 'query'>,
  caps: Caps,
  who: Who,
  step: Step,
  now: number,
): Promise<number> {
  const { email, purpose, client } = who
  const waits = [
    await wait(db, caps.wrongCodesPerAddress, 'wrong', { email, purpose }, now),
    await wait(db, caps.wrongCodesPerAddressAndClient, 'wrong', { email, purpose, client }, now),
  ]
  if (step === 'try')
    waits.push(
      await wait(db, caps.wrongCodesPerClient, 'wrong', { client }, now),
      await wait(db, caps.wrongCodes, 'wrong', {}, now),
    )
  return Math.max(...waits)
}

/** How long the client must wait before another code is sent: 0 while under its cap and the total's. */
export async function sendsWait(
  db: Pick<Database, 'query'>,
  caps: Caps,
  client: string,
  now: number,
): Promise<number> {
  return Math.max(
    await wait(db, caps.codesPerClient, 'sent', { client }, now),
    await wait(db, caps.codes, 'sent', {}, now),
  )
}

/** Forgets events older than the longest window of any cap. */
export async function prune(db: Pick<Database, 'query'>, caps: Caps, now: number): Promise<void> {
  const longestS = Math.max(...Object.values(caps).flatMap((windows) => windows.map((each) => each.windowS)))
  await db.query('delete from auth_code_events where at <= $1', [now - longestS * 1_000])
}

/**
 * 0 while every window holds fewer than its `max` events of this kind in this scope, else until the
 * `max`-th latest of the fullest window leaves it.
 */
async function wait(
  db: Pick<Database, 'query'>,
  windows: readonly Window[],
  kind: Kind,
  scope: { email?: string; purpose?: Purpose; client?: string },
  now: number,
): Promise<number> {
  let waitMs = 0
  for (const { max, windowS } of windows) {
    const windowMs = windowS * 1_000
    const values: unknown[] = [kind, now - windowMs, max - 1]
    const conditions = Object.entries(scope).map(([column, value]) => {
      values.push(value)
      return `${column} = $${values.length}`
    })
    const [row] = await db.query<{ at: string }>(
      `select at from auth_code_events
       where kind = $1 and at > $2 ${conditions.map((condition) => `and ${condition}`).join(' ')}
       order by at desc offset $3 limit 1`,
      values,
    )
    if (row) waitMs = Math.max(waitMs, Number(row.at) + windowMs - now)
  }
  return waitMs
}
