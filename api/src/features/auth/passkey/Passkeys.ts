/**
 * The users' passkeys: a credential id (base64url), its COSE public key and the last signature counter seen.
 * A credential belongs to one user; its public key is all the API keeps, so a stolen database signs nothing.
 */
import type { Database } from '../../../Database.ts'

/** A stored passkey; times are epoch milliseconds. */
export type Passkey = {
  credentialId: string
  userId: string
  publicKey: Uint8Array<ArrayBuffer>
  counter: number
  transports: string[]
}

type PasskeyRow = {
  credential_id: string
  user_id: string
  public_key: Uint8Array
  counter: string
  transports: string | null
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  credentialId: row.credential_id,
  userId: row.user_id,
  // pg answers a Buffer, PGlite a Uint8Array: one type for callers.
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports ? (JSON.parse(row.transports) as string[]) : [],
})

/**
 * Keeps a new passkey of the user: false when that credential is registered already (to anyone).
 * @example await Passkeys.add(db, { credentialId, userId, publicKey, counter: 0, transports: ['internal'] }, Date.now())
 */
export async function add(db: Pick<Database, 'query'>, passkey: Passkey, now: number): Promise<boolean> {
  const inserted = await db.query(
    `insert into auth_passkeys (credential_id, user_id, public_key, counter, transports, created_at)
     values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning credential_id`,
    [
      passkey.credentialId,
      passkey.userId,
      passkey.publicKey,
      passkey.counter,
      JSON.stringify(passkey.transports),
      now,
    ],
  )
  return inserted.length > 0
}

/** The passkey of this credential id, whoever's it is. */
export async function find(db: Pick<Database, 'query'>, credentialId: string): Promise<Passkey | undefined> {
  const [row] = await db.query<PasskeyRow>(
    'select credential_id, user_id, public_key, counter, transports from auth_passkeys where credential_id = $1',
    [credentialId],
  )
  return row && toPasskey(row)
}

/** The user's passkeys, oldest first. */
export async function of(db: Pick<Database, 'query'>, userId: string): Promise<Passkey[]> {
  const rows = await db.query<PasskeyRow>(
    `select credential_id, user_id, public_key, counter, transports from auth_passkeys
     where user_id = $1 order by created_at`,
    [userId],
  )
  return rows.map(toPasskey)
}

/**
 * Records a login with the passkey: its new signature counter. Only forward, so of two logins racing with one
 * counter value, the second finds the counter moved and is refused (false).
 */
export async function used(
  db: Pick<Database, 'query'>,
  passkey: Pick<Passkey, 'credentialId' | 'counter'>,
  counter: number,
  now: number,
): Promise<boolean> {
  const updated = await db.query(
    `update auth_passkeys set counter = $2, used_at = $3
     where credential_id = $1 and (counter = $4 or $2 = 0) returning credential_id`,
    [passkey.credentialId, counter, now, passkey.counter],
  )
  return updated.length > 0
}
