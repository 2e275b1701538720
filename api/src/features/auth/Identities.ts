/**
 * Who a login through someone else is: each provider's person (its `subject`) maps to one user, found
 * again at every later login.
 *
 * A social login's first login links it by email, and only by an email the provider vouches for:
 * - a known (provider, subject) is its user, whatever email the provider now reports;
 * - otherwise, with a verified email, the user of that address (an email login's included, created if
 *   there is none) gets this identity: proving the mailbox to Google is as good as proving it by a code;
 * - otherwise, from a provider that never vouches for an address (Facebook, `Presets.ts`), a user of its
 *   own, with no email, never joined to an email user;
 * - otherwise (no email, or one a provider that can vouch did not) the login is refused, so that the
 *   visitor confirms their address there. Users are one per mailbox: an unproven address would let whoever
 *   typed it at the provider into its owner's account, or its owner's later email login into theirs.
 *
 * A Farcaster login proves a fid and no email: its first login makes a user of its own, with no email,
 * and never joins an email user.
 */
import type { SocialProvider } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import { presets } from './Presets.ts'
import type { Profile } from './Providers.ts'
import * as Users from './Users.ts'

/** Providers whose person is their subject alone, with no email to link by. */
export type AccountProvider = 'farcaster'

type UserRow = { id: string; email: string | null; created_at: string }

/**
 * The user of a provider's profile under the rule above, keeping its latest username; `undefined` when the
 * rule refuses it.
 * @example const user = await Identities.userFor(db, 'github', profile, Date.now())
 */
export async function userFor(
  db: Pick<Database, 'query'>,
  provider: SocialProvider,
  profile: Profile,
  now: number,
): Promise<Users.User | undefined> {
  const known = await touch(db, provider, profile.subject, profile.username)
  if (known) return known
  if (!presets[provider].vouches) return userOfAccount(db, provider, profile.subject, profile.username, now)
  if (!profile.email || !profile.emailVerified) return undefined
  const user = await Users.findOrCreate(db, profile.email, now)
  // Two first logins at once: the first insert wins, and both end with its user.
  await db.query(
    `insert into auth_identities (provider, subject, user_id, username, created_at)
     values ($1, $2, $3, $4, $5) on conflict (provider, subject) do nothing`,
    [provider, profile.subject, user.id, profile.username ?? null, now],
  )
  return touch(db, provider, profile.subject, profile.username)
}

/**
 * The user of an account known only by its subject (a fid, a Facebook person), created now without an
 * email at its first login; its latest username is kept.
 * @example const user = await Identities.userOfAccount(db, 'farcaster', '4242', 'ada', Date.now())
 */
export async function userOfAccount(
  db: Pick<Database, 'query'>,
  provider: SocialProvider | AccountProvider,
  subject: string,
  username: string | undefined,
  now: number,
): Promise<Users.User> {
  const known = await touch(db, provider, subject, username)
  if (known) return known
  const user = await Users.createWithoutEmail(db, now)
  const inserted = await db.query(
    `insert into auth_identities (provider, subject, user_id, username, created_at)
     values ($1, $2, $3, $4, $5) on conflict (provider, subject) do nothing returning user_id`,
    [provider, subject, user.id, username ?? null, now],
  )
  if (inserted.length > 0) return user
  // Two first logins at once: the other made the identity, so this user is nobody's and goes.
  await Users.remove(db, user.id)
  const winner = await touch(db, provider, subject, username)
  if (!winner) throw new Error(`no user for the ${provider} identity ${subject}`)
  return winner
}

/**
 * The identity of a user who has no email (a Farcaster or Facebook login's): the one it was made by.
 * @example const identity = await Identities.of(db, user.id) // { provider: 'farcaster', subject: '4242', username: 'ada' }
 */
export async function of(
  db: Pick<Database, 'query'>,
  userId: string,
): Promise<
  { provider: SocialProvider | AccountProvider; subject: string; username: string | undefined } | undefined
> {
  const [row] = await db.query<{
    provider: SocialProvider | AccountProvider
    subject: string
    username: string | null
  }>(
    'select provider, subject, username from auth_identities where user_id = $1 order by created_at limit 1',
    [userId],
  )
  return row && { provider: row.provider, subject: row.subject, username: row.username ?? undefined }
}

/** The user of a known identity, its username brought up to date. */
async function touch(
  db: Pick<Database, 'query'>,
  provider: SocialProvider | AccountProvider,
  subject: string,
  username: string | undefined,
): Promise<Users.User | undefined> {
  const [row] = await db.query<UserRow>(
    `update auth_identities i set username = $3 from users u
     where i.provider = $1 and i.subject = $2 and u.id = i.user_id
     returning u.id, u.email, u.created_at`,
    [provider, subject, username ?? null],
  )
  return row && { id: row.id, email: row.email, createdAt: Number(row.created_at) }
}
