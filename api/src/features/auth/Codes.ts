/**
 * One-time codes sent by email: 6 random digits, good for 10 minutes and 5 tries, for one purpose.
 * An address holds one live code per purpose (a new one replaces the old) and is sent at most one per purpose
 * every 30 s. Only the code's HMAC is stored ({@link Hmac.digest}), bound to its address and purpose, so a
 * code of one purpose never works for another. Codes sent and wrong codes also count against caps over time
 * ({@link Caps}: per client address, per address and purpose across codes, in all): past one, a code is not
 * sent, or not tried, for a while.
 */
import { randomInt } from 'node:crypto'
import type { Database } from '../../Database.ts'
import * as Caps from './Caps.ts'
import * as Hmac from './Hmac.ts'

/** A code is good for 10 minutes after it was sent. */
export const codeTtlMs = 600_000
/** An address is sent at most one code per purpose every 30 s (docs/behaviour.md §9 "Email cooldown 30 s"). */
export const cooldownMs = 30_000
/** Wrong codes a code takes; after them it is locked, and only a new code helps. */
export const maxTries = 5
/** How long a code is kept after it expired, so the table stays small (1 hour). */
export const retentionMs = 3_600_000

/**
 * What a code is for. `login` opens a session; changing an email takes a code sent to the current address
 * (`change-primary`), then one sent to the new address (`change-secondary`).
 */
export type Purpose = 'login' | 'change-primary' | 'change-secondary'

/**
 * 6 digits, each of the 10^6 codes equally likely: `randomInt` draws from the OS's CSPRNG and rejects what
 * would bias the range.
 * @example Codes.random() // '042917'
 */
export function random(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

type CodeRow = {
  email: string
  purpose: Purpose
  project_id: string
  user_id: string | null
  new_email: string | null
  code_hash: string
  sent_at: string
  expires_at: string
  tries: number
  used_at: string | null
}

const columns =
  'email, purpose, project_id, user_id, new_email, code_hash, sent_at, expires_at, tries, used_at'

export type IssueParameters = {
  /** Where the code goes: an address as `Contract.emailAddress` spells it. */
  email: string
  purpose: Purpose
  projectId: string
  /** The user a change-email code is for: only their session can redeem it. */
  userId?: string | undefined
  /** The address a `change-primary` code moves the user to. */
  newEmail?: string | undefined
  /** Who asks: the client address the caps count it against (`Limits.clientOf`). */
  client: string
  caps: Caps.Caps
  secret: string
  now: number
}

/**
 * A code issued: its digits (to mail, never stored) and `undo`, which puts the address's previous code back
 * and lifts the throttle when the mail could not be sent. Or how long the address must wait, and why: a
 * code sent less than {@link cooldownMs} ago (`cooldown`), too many wrong codes lately (`failures`), or too
 * many codes sent from this client or in all (`sends`).
 */
export type Issued =
  | { ok: true; code: string; undo(): Promise<void> }
  | { ok: false; reason: 'cooldown' | 'failures' | 'sends'; retryAfterMs: number }

/**
 * Draws a code for the address and purpose, replacing its previous one, unless one was sent less than
 * {@link cooldownMs} ago or a cap holds it ({@link Caps}). Atomic: of racing requests for one address, one
 * gets a code.
 * @example
 * const issued = await Codes.issue(db, { email, purpose: 'login', projectId, secret, now: Date.now() })
 * if (issued.ok) await mail(email, issued.code)
 */
export async function issue(
  db: Pick<Database, 'query' | 'transaction'>,
  parameters: IssueParameters,
): Promise<Issued> {
  const { email, purpose, caps, now } = parameters
  const who = { email, purpose, client: parameters.client }
  const code = random()
  const codeHash = hashOf(parameters.secret, purpose, email, code)
  const outcome = await db.transaction(
    async (tx): Promise<Exclude<Issued, { ok: true }> | { ok: true; previous?: CodeRow }> => {
      await tx.query('delete from auth_codes where expires_at < $1', [now - retentionMs])
      await Caps.prune(tx, caps, now)
      // A user's change code is their only one of its purpose, whichever address they last asked for.
      if (parameters.userId)
        await tx.query('delete from auth_codes where user_id = $1 and purpose = $2 and email <> $3', [
          parameters.userId,
          purpose,
          email,
        ])
      const [previous] = await tx.query<CodeRow>(
        `select ${columns} from auth_codes where email = $1 and purpose = $2 for update`,
        [email, purpose],
      )
      const cooling = previous ? Math.max(0, Number(previous.sent_at) + cooldownMs - now) : 0
      // Checked under the row's lock, which a wrong try holds while it counts itself.
      const blocked = await Caps.failuresWait(tx, caps, who, 'send', now)
      if (blocked > 0)
        return { ok: false, reason: 'failures', retryAfterMs: Math.max(blocked, cooling) } as const
      if (cooling > 0) return { ok: false, reason: 'cooldown', retryAfterMs: cooling } as const
      const sending = await Caps.sendsWait(tx, caps, who.client, now)
      if (sending > 0) return { ok: false, reason: 'sends', retryAfterMs: sending } as const
      // The condition again, for a request that raced this one to an address that had no row: it waits for
      // the other's insert, then finds it too recent.
      const written = await tx.query(
        `insert into auth_codes (email, purpose, project_id, user_id, new_email, code_hash, sent_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (email, purpose) do update set project_id = excluded.project_id, user_id = excluded.user_id,
         new_email = excluded.new_email, code_hash = excluded.code_hash, sent_at = excluded.sent_at,
         expires_at = excluded.expires_at, tries = 0, used_at = null
       where auth_codes.sent_at <= $9
       returning 1`,
        [
          email,
          purpose,
          parameters.projectId,
          parameters.userId ?? null,
          parameters.newEmail ?? null,
          codeHash,
          now,
          now + codeTtlMs,
          now - cooldownMs,
        ],
      )
      if (written.length === 0) return { ok: false, reason: 'cooldown', retryAfterMs: cooldownMs } as const
      await Caps.record(tx, 'sent', who, now)
      return previous ? { ok: true, previous } : { ok: true }
    },
  )
  if (!outcome.ok) return outcome
  const undo = async () => {
    await restore(db, email, purpose, codeHash, outcome.previous)
    await Caps.forgetSend(db, who, now)
  }
  return { ok: true, code, undo }
}

/** Puts `previous` back in place of the code hashed `codeHash`, or removes that code when there was none. */
async function restore(
  db: Pick<Database, 'query'>,
  email: string,
  purpose: Purpose,
  codeHash: string,
  previous: CodeRow | undefined,
): Promise<void> {
  const key = [email, purpose, codeHash]
  if (!previous) {
    await db.query('delete from auth_codes where email = $1 and purpose = $2 and code_hash = $3', key)
    return
  }
  await db.query(
    `update auth_codes set project_id = $4, user_id = $5, new_email = $6, code_hash = $7, sent_at = $8,
       expires_at = $9, tries = $10, used_at = $11
     where email = $1 and purpose = $2 and code_hash = $3`,
    [
      ...key,
      previous.project_id,
      previous.user_id,
      previous.new_email,
      previous.code_hash,
      previous.sent_at,
      previous.expires_at,
      previous.tries,
      previous.used_at,
    ],
  )
}

/** A code redeemed: where it was sent, for whom, and when it was used (to {@link release} it). */
export type Redeemed = {
  email: string
  purpose: Purpose
  projectId: string
  userId: string | null
  newEmail: string | null
  usedAt: number
}

/** Why a code was refused: none matched (wrong, used, another project's or user's), too late, or locked. */
export type Refusal = 'invalid' | 'expired' | 'locked'

/**
 * A code redeemed, or why not: a {@link Refusal}, or wrong codes over a cap ({@link Caps}), with how long
 * to wait.
 */
export type Redemption =
  | { ok: true; code: Redeemed }
  | { ok: false; reason: Refusal }
  | { ok: false; reason: 'failures'; retryAfterMs: number }

export type RedeemParameters = {
  purpose: Purpose
  /** A login code is found by its address; a change code by the user it was issued to. */
  key: { email: string } | { userId: string }
  projectId: string
  code: string
  /** Who tries it: the client address the caps count a wrong code against. */
  client: string
  caps: Caps.Caps
  secret: string
  now: number
}

/**
 * Uses up the code of the address (or user) and purpose when `code` is it: once, within {@link codeTtlMs},
 * before {@link maxTries} wrong ones, while under every cap of wrong codes that applies ({@link Caps}: else
 * no code is even compared, the right one included). A wrong code counts a try of the code, and an event for
 * the caps. Compared in constant time; atomic, so racing tries count one by one and only one can win.
 * @example
 * const redeemed = await Codes.redeem(db, { purpose: 'login', key: { email }, projectId, code, secret, now })
 */
export async function redeem(
  db: Pick<Database, 'transaction'>,
  parameters: RedeemParameters,
): Promise<Redemption> {
  const { purpose, key, client, caps, now } = parameters
  return db.transaction(async (tx) => {
    const [row] =
      'email' in key
        ? await tx.query<CodeRow>(
            `select ${columns} from auth_codes where email = $1 and purpose = $2 for update`,
            [key.email, purpose],
          )
        : await tx.query<CodeRow>(
            `select ${columns} from auth_codes where user_id = $1 and purpose = $2
             order by sent_at desc limit 1 for update`,
            [key.userId, purpose],
          )
    const email = row?.email ?? ('email' in key ? key.email : undefined)
    const blocked = email ? await Caps.failuresWait(tx, caps, { email, purpose, client }, 'try', now) : 0
    if (blocked > 0) return { ok: false, reason: 'failures', retryAfterMs: blocked } as const
    if (!row || row.used_at !== null || row.project_id !== parameters.projectId)
      return { ok: false, reason: 'invalid' } as const
    if (Number(row.expires_at) <= now) return { ok: false, reason: 'expired' } as const
    if (row.tries >= maxTries) return { ok: false, reason: 'locked' } as const
    const where = [row.email, purpose]
    if (!Hmac.equal(row.code_hash, hashOf(parameters.secret, purpose, row.email, parameters.code))) {
      await tx.query('update auth_codes set tries = tries + 1 where email = $1 and purpose = $2', where)
      await Caps.record(tx, 'wrong', { email: row.email, purpose, client }, now)
      return { ok: false, reason: 'invalid' } as const
    }
    await tx.query('update auth_codes set used_at = $3 where email = $1 and purpose = $2', [...where, now])
    const code: Redeemed = {
      email: row.email,
      purpose,
      projectId: row.project_id,
      userId: row.user_id,
      newEmail: row.new_email,
      usedAt: now,
    }
    return { ok: true, code } as const
  })
}

/**
 * Makes a redeemed code usable again, when the step it opened failed for a reason of the server's (the
 * next code could not be mailed), so the visitor can retry it at once. A code replaced since stays replaced.
 */
export async function release(db: Pick<Database, 'query'>, code: Redeemed): Promise<void> {
  await db.query('update auth_codes set used_at = null where email = $1 and purpose = $2 and used_at = $3', [
    code.email,
    code.purpose,
    code.usedAt,
  ])
}

function hashOf(secret: string, purpose: Purpose, email: string, code: string): string {
  return Hmac.digest(secret, 'code', purpose, email, code)
}
