import type { Migration } from '../../internal/migrations.ts'

/**
 * What sponsored operations cost each project (`Ledger.ts`), appended to the schema by
 * `internal/migrations.ts`. Amounts are wei as numeric(78, 0); chain_id CAIP-2; addresses lower-case 0x; day
 * the UTC day number (epoch milliseconds / 86,400,000) of the API's clock when the operation was signed.
 */
export const sponsorshipMigration: Migration = {
  name: 'sponsorship budgets',
  statements: [
    // One row per project and chain: the total spent, and the row every signing and every settlement of the
    // project locks first (select … for update), so replicas on one database take turns with its budget.
    `create table sponsorship_totals (
      project_id text not null,
      chain_id text not null,
      cost numeric(78, 0) not null default 0,
      operations bigint not null default 0,
      primary key (project_id, chain_id)
    )`,
    // What was spent per day: sender '' is the project's whole day, each other row one sender's.
    `create table sponsorship_days (
      project_id text not null,
      chain_id text not null,
      day integer not null,
      sender text not null,
      cost numeric(78, 0) not null default 0,
      operations bigint not null default 0,
      primary key (project_id, chain_id, day, sender)
    )`,
    // A signed sponsorship not yet seen on chain: it counts at the most it may cost (its gas limits times its
    // maxFeePerGas, the EntryPoint's prefund) until the follower sees its UserOperationEvent or a block past
    // valid_until (chain seconds), after which the EntryPoint refuses it.
    `create table sponsorship_reservations (
      user_op_hash text not null,
      chain_id text not null,
      project_id text not null,
      sender text not null,
      nonce numeric(78, 0) not null,
      day integer not null,
      max_cost numeric(78, 0) not null,
      valid_until bigint not null,
      primary key (chain_id, user_op_hash)
    )`,
    'create index sponsorship_reservations_project on sponsorship_reservations (project_id, chain_id, day, sender)',
    'create index sponsorship_reservations_operation on sponsorship_reservations (chain_id, sender, nonce)',
    'create index sponsorship_reservations_expiry on sponsorship_reservations (chain_id, valid_until)',
    // Each operation counted, by its hash: a log read twice (a restart, a replica, a reorg) counts once.
    `create table sponsorship_operations (
      chain_id text not null,
      user_op_hash text not null,
      project_id text not null,
      sender text not null,
      day integer not null,
      cost numeric(78, 0) not null,
      block_number bigint not null,
      primary key (chain_id, user_op_hash)
    )`,
    // How far each chain's UserOperationEvents were read: the last block, by height and hash (a hash the chain
    // no longer has is a reorg, or a chain started afresh).
    `create table sponsorship_cursors (
      chain_id text primary key,
      height bigint not null,
      hash text not null
    )`,
  ],
}
