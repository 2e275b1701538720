/**
 * Who a social login is: each provider's person (its `subject`) maps to one user, found again at every
 * later login. The first login links it by email, and only by an email the provider vouches for:
 * - a known (provider, subject) is its user, whatever email the provider now reports;
 * - otherwise, with a verified email, the user of that address (an email login's included, created if
 *   there is none) gets this identity: proving the mailbox to Google is as good as proving it by a code;
 * - otherwise (no email, or one the provider does not vouch for) the login is refused. Users are one per
 *   mailbox: an unproven address would let whoever typed it at the provider into its owner's account, or
 *   its owner's later email login into theirs.
 */
import type { SocialProvider } from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import type { Profile } from './Providers.ts'
import * as Users from './Users.ts'

type UserRow = { id: string; email: string; created_at: string }

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
  const known = await touch(db, provider, profile)
  if (known) return known
  if (!profile.email || !profile.emailVerified) return undefined
  const user = await Users.findOrCreate(db, profile.email, now)
  // Two first logins at once: the first insert wins, and both end with its user.
  await db.query(
    `insert into auth_identities (provider, subject, user_id, username, created_at)
     values ($1, $2, $3, $4, $5) on conflict (provider, subject) do nothing`,
    [provider, profile.subject, user.id, profile.username ?? null, now],
  )
  return touch(db, provider, profile)
}

/** The user of a known identity, its username brought up to date. */
async function touch(
  db: Pick<Database, 'query'>,
  provider: SocialProvider,
  profile: Profile,
): Promise<Users.User | undefined> {
  const [row] = await db.query<UserRow>(
    `update auth_identities i set username = $3 from users u
     where i.provider = $1 and i.subject = $2 and u.id = i.user_id
     returning u.id, u.email, u.created_at`,
    [provider, profile.subject, profile.username ?? null],
  )
  return row && { id: row.id, email: row.email, createdAt: Number(row.created_at) }
}
