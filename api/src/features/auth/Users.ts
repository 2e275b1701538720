/**
 * The people who log in: one per email address, created by their first login, whatever the project; or,
 * for a login that proves no address (Sign In With Farcaster), one per identity (`Identities.ts`), with no
 * email. An address is spelled as `Contract.emailAddress` parses it (lower case, whole), so one mailbox is
 * one user.
 */
import type { Database } from '../../Database.ts'

/** A user: `createdAt` is epoch milliseconds; `email` is null for a user known only by an identity. */
export type User = { id: string; email: string | null; createdAt: number }

/** A user who has an email address: every email or social login's. */
export type EmailUser = User & { email: string }

type UserRow = { id: string; email: string | null; created_at: string }

const toUser = (row: UserRow): User => ({ id: row.id, email: row.email, createdAt: Number(row.created_at) })

/**
 * The user of the address, created now if it has none.
 * @example const user = await Users.findOrCreate(db, 'ada@example.com', Date.now())
 */
export async function findOrCreate(
  db: Pick<Database, 'query'>,
  email: string,
  now: number,
): Promise<EmailUser> {
  await db.query(
    'insert into users (id, email, created_at) values ($1, $2, $3) on conflict (email) do nothing',
    [crypto.randomUUID(), email, now],
  )
  const [row] = await db.query<UserRow>('select id, email, created_at from users where email = $1', [email])
  if (!row) throw new Error('users returned no row')
  return { ...toUser(row), email }
}

/**
 * A new user without an email, for an identity that proves none.
 * @example const user = await Users.createWithoutEmail(db, Date.now())
 */
export async function createWithoutEmail(db: Pick<Database, 'query'>, now: number): Promise<User> {
  const user: User = { id: crypto.randomUUID(), email: null, createdAt: now }
  await db.query('insert into users (id, email, created_at) values ($1, null, $2)', [user.id, now])
  return user
}

/**
 * Deletes a user (one whose identity lost a race to another's: it never had a session).
 * @example await Users.remove(db, user.id)
 */
export async function remove(db: Pick<Database, 'query'>, id: string): Promise<void> {
  await db.query('delete from users where id = $1', [id])
}

/**
 * Moves the user to another address: `taken` when another user has it, `undefined` when the user is gone.
 * @example if ((await Users.changeEmail(db, user.id, 'ada@new.example')) === 'taken') …
 */
export async function changeEmail(
  db: Pick<Database, 'query'>,
  id: string,
  email: string,
): Promise<EmailUser | 'taken' | undefined> {
  try {
    const [row] = await db.query<UserRow>(
      'update users set email = $2 where id = $1 returning id, email, created_at',
      [id, email],
    )
    return row && { ...toUser(row), email }
  } catch (error) {
    // 23505 unique_violation: the address is another user's (PGlite and pg both carry the code).
    if ((error as { code?: unknown }).code === '23505') return 'taken'
    throw error
  }
}

/** The user of this id, or `undefined`. */
export async function byId(db: Pick<Database, 'query'>, id: string): Promise<User | undefined> {
  const [row] = await db.query<UserRow>('select id, email, created_at from users where id = $1', [id])
  return row && toUser(row)
}
