import type * as Contract from '../../contract/index.ts'
import type { Database } from '../../Database.ts'
import * as Farcaster from './farcaster/routes.ts'
import * as Identities from './Identities.ts'
import type * as Users from './Users.ts'

/**
 * What a session's user may see of themself, whichever way they logged in: their email, or, for a user who
 * has none, the identity it was made by (a fid, or a provider that vouches for no address); `undefined` for
 * a user with neither (none is made so).
 * @example const user = await sessionUserOf(db, found.user)
 */
export async function sessionUserOf(
  db: Pick<Database, 'query'>,
  user: Users.User,
): Promise<Contract.SessionUserAnswer['user'] | undefined> {
  if (user.email !== null) return { id: user.id, email: user.email }
  const identity = await Identities.of(db, user.id)
  if (!identity) return undefined
  const { provider, subject, username } = identity
  if (provider === 'farcaster') return Farcaster.publicUser(user.id, Number(subject), username)
  return { id: user.id, provider, ...(username ? { username } : {}) }
}
