import type { Migration } from '../../internal/migrations.ts'

/** The recovery share's sealed copies (`Wallets.ts`), appended by `internal/migrations.ts`. */
export const walletRecoveriesMigration: Migration = {
  name: 'wallet recoveries',
  statements: [
    // Each way the recovery share was sealed by the modal: under a passkey's PRF output (credential_id the
    // passkey's) or under the recovery password (credential_id ''). Nothing here opens either.
    `create table embedded_wallet_recoveries (
      user_id uuid not null references embedded_wallets (user_id) on delete cascade,
      method text not null,
      credential_id text not null,
      sealed bytea not null,
      created_at bigint not null,
      primary key (user_id, method, credential_id)
    )`,
    // Every wallet so far sealed its recovery share under a password.
    `insert into embedded_wallet_recoveries (user_id, method, credential_id, sealed, created_at)
     select user_id, 'password', '', recovery_share, created_at from embedded_wallets`,
    'alter table embedded_wallets drop column recovery_share',
  ],
}
