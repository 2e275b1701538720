/**
 * The embedded wallets: one per user, whatever the project, stored once and never overwritten, so a stolen
 * session cannot swap a visitor's wallet for one it knows. Each address belongs to one user's wallet. The
 * auth share is stored sealed under the configuration's key (`Sealing.ts`), the recovery share as the modal
 * sealed it, under a passkey's PRF output or the visitor's recovery password, one copy each: nothing in a
 * row opens either. A copy is added only with a proof that the wallet's key signed (`routes.ts`).
 */
import type { Database } from '../../Database.ts'

/** One sealed copy of the recovery share: `credentialId` names a passkey's. */
export type Recovery =
  | { method: 'passkey'; credentialId: string; sealed: Uint8Array }
  | { method: 'password'; sealed: Uint8Array }

/** A stored wallet: its shares sealed; times are epoch milliseconds. */
export type Wallet = {
  userId: string
  fingerprint: string
  addresses: { eip155: string; solana: string }
  authShare: Uint8Array
  recoveries: Recovery[]
  createdAt: number
}

type RecoveryRow = { method: 'passkey' | 'password'; credential_id: string; sealed: Uint8Array }

type WalletRow = {
  user_id: string
  fingerprint: string
  evm_address: string
  solana_address: string
  auth_share: Uint8Array
  created_at: string
}

/**
 * Stores the user's wallet: `exists` when the user has one already (it stays as it was), `taken` when
 * another user's wallet has one of its addresses.
 * @example if ((await Wallets.create(db, wallet)) === 'exists') …
 */
export async function create(
  db: Pick<Database, 'transaction'>,
  wallet: Wallet,
): Promise<'created' | 'exists' | 'taken'> {
  return db.transaction(async (tx) => {
    // No conflict target: a clash on the user or on either address inserts nothing, whichever came first.
    const inserted = await tx.query(
      `insert into embedded_wallets (user_id, fingerprint, evm_address, solana_address, auth_share, created_at)
       values ($1, $2, $3, $4, $5, $6)
       on conflict do nothing
       returning user_id`,
      [
        wallet.userId,
        wallet.fingerprint,
        wallet.addresses.eip155,
        wallet.addresses.solana,
        wallet.authShare,
        wallet.createdAt,
      ],
    )
    if (inserted.length === 0) {
      const [own] = await tx.query('select 1 from embedded_wallets where user_id = $1', [wallet.userId])
      return own ? 'exists' : 'taken'
    }
    for (const recovery of wallet.recoveries)
      await insertRecovery(tx, wallet.userId, recovery, wallet.createdAt)
    return 'created'
  })
}

/**
 * Adds a sealed copy of the user's recovery share: false when one of that method and passkey is there
 * already (a copy is never replaced) or the user has no wallet.
 * @example await Wallets.addRecovery(db, user.id, { method: 'passkey', credentialId, sealed }, Date.now())
 */
export async function addRecovery(
  db: Pick<Database, 'query'>,
  userId: string,
  recovery: Recovery,
  now: number,
): Promise<boolean> {
  try {
    return await insertRecovery(db, userId, recovery, now)
  } catch (error) {
    // 23503 foreign_key_violation: no wallet to add it to.
    if ((error as { code?: unknown }).code === '23503') return false
    throw error
  }
}

/**
 * Drops the copy sealed under the recovery password, only while a passkey's copy stays: false otherwise.
 * @example await Wallets.dropPassword(db, user.id)
 */
export async function dropPassword(db: Pick<Database, 'query'>, userId: string): Promise<boolean> {
  const dropped = await db.query(
    `delete from embedded_wallet_recoveries
     where user_id = $1 and method = 'password'
       and exists (select 1 from embedded_wallet_recoveries where user_id = $1 and method = 'passkey')
     returning user_id`,
    [userId],
  )
  return dropped.length > 0
}

async function insertRecovery(
  db: Pick<Database, 'query'>,
  userId: string,
  recovery: Recovery,
  now: number,
): Promise<boolean> {
  const inserted = await db.query(
    `insert into embedded_wallet_recoveries (user_id, method, credential_id, sealed, created_at)
     values ($1, $2, $3, $4, $5) on conflict do nothing returning user_id`,
    [
      userId,
      recovery.method,
      recovery.method === 'passkey' ? recovery.credentialId : '',
      recovery.sealed,
      now,
    ],
  )
  return inserted.length > 0
}

/**
 * The user's wallet, or `undefined`; notes when it was read, so an operator can tell when a session last
 * took the auth share.
 * @example const wallet = await Wallets.read(db, user.id, Date.now())
 */
export async function read(
  db: Pick<Database, 'query'>,
  userId: string,
  now: number,
): Promise<Wallet | undefined> {
  const [row] = await db.query<WalletRow>(
    `update embedded_wallets set read_at = $2 where user_id = $1
     returning user_id, fingerprint, evm_address, solana_address, auth_share, created_at`,
    [userId, now],
  )
  if (!row) return undefined
  const recoveries = await db.query<RecoveryRow>(
    `select method, credential_id, sealed from embedded_wallet_recoveries
     where user_id = $1 order by created_at, method`,
    [userId],
  )
  return {
    userId: row.user_id,
    fingerprint: row.fingerprint,
    addresses: { eip155: row.evm_address, solana: row.solana_address },
    // pg answers a Buffer, PGlite a Uint8Array: one type for callers.
    authShare: new Uint8Array(row.auth_share),
    recoveries: recoveries.map(({ method, credential_id, sealed }) =>
      method === 'passkey'
        ? { method, credentialId: credential_id, sealed: new Uint8Array(sealed) }
        : { method, sealed: new Uint8Array(sealed) },
    ),
    createdAt: Number(row.created_at),
  }
}
