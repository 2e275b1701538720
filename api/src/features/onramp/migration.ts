import type { Migration } from '../../internal/migrations.ts'

/** On-ramp orders (`Orders.ts`), appended to the schema by `internal/migrations.ts`. */
export const onrampMigration: Migration = {
  name: 'onramp orders',
  statements: [
    // One row per checkout opened. id: random, the only handle a client has; holder: the address as
    // history looks it up (lower-case for 0x, as given for base58). Amounts are decimal strings in whole
    // units; times epoch milliseconds. status goes from pending to completed or failed, once.
    `create table onramp_orders (
      id text primary key,
      project_id text not null references projects (id) on delete cascade,
      provider text not null,
      partner_user_id text not null,
      address text not null,
      holder text not null,
      network text not null,
      asset text not null,
      fiat_currency text not null,
      fiat_amount text,
      crypto_amount text,
      quote_id text,
      status text not null,
      provider_transaction_id text,
      tx_hash text,
      failure_reason text,
      created_at bigint not null,
      updated_at bigint not null
    )`,
    'create index onramp_orders_holder on onramp_orders (project_id, holder, created_at desc)',
  ],
}
