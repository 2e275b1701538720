/**
 * The embedded wallets: one per user, whatever the project, stored once and never overwritten, so a stolen
 * session cannot swap a visitor's wallet for one it knows. Each address belongs to one user's wallet. The
 * auth share is stored sealed under the configuration's key (`Sealing.ts`), the recovery share as the modal
 * sealed it under a key from the visitor's recovery password: nothing in a row opens either.
 */
import type { Database } from '../../Database.ts'

/** A stored wallet: both shares sealed; times are epoch milliseconds. */
export type Wallet = {
  userId: string
  fingerprint: string
  addresses: { eip155: string; solana: string }
  authShare: Uint8Array
  recoveryShare: Uint8Array
  createdAt: number
}

type WalletRow = {
  user_id: string
  fingerprint: string
  evm_address: string
  solana_address: string
  auth_share: Uint8Array
  recovery_share: Uint8Array
  created_at: string
}

/**
 * Stores the user's wallet: `exists` when the user has one already (it stays as it was), `taken` when
 * another user's wallet has one of its addresses.
 * @example if ((await Wallets.create(db, wallet)) === 'exists') …
 */
export async function create(
  db: Pick<Database, 'query'>,
  wallet: Wallet,
): Promise<'created' | 'exists' | 'taken'> {
  // No conflict target: a clash on the user or on either address inserts nothing, whichever came first.
  const inserted = await db.query(
    `insert into embedded_wallets
       (user_id, fingerprint, evm_address, solana_address, auth_share, recovery_share, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict do nothing
     returning user_id`,
    [
      wallet.userId,
      wallet.fingerprint,
      wallet.addresses.eip155,
      wallet.addresses.solana,
      wallet.authShare,
      wallet.recoveryShare,
      wallet.createdAt,
    ],
  )
  if (inserted.length > 0) return 'created'
  const [own] = await db.query('select 1 from embedded_wallets where user_id = $1', [wallet.userId])
  return own ? 'exists' : 'taken'
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
     returning user_id, fingerprint, evm_address, solana_address, auth_share, recovery_share, created_at`,
    [userId, now],
  )
  if (!row) return undefined
  return {
    userId: row.user_id,
    fingerprint: row.fingerprint,
    addresses: { eip155: row.evm_address, solana: row.solana_address },
    // pg answers a Buffer, PGlite a Uint8Array: one type for callers.
    authShare: new Uint8Array(row.auth_share),
    recoveryShare: new Uint8Array(row.recovery_share),
    createdAt: Number(row.created_at),
  }
}
