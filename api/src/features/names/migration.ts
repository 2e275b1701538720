import type { Migration } from '../../internal/migrations.ts'

/** The project's names (`Store.ts`), appended to the schema by `internal/migrations.ts`. */
export const namesMigration: Migration = {
  name: 'names',
  statements: [
    // One row per name, normalised and whole (`newcomer.airlock.id`); an address holds one name per suffix.
    // address: lower-case 0x; coin_type: ENSIP-9/11, what it was registered for. Times: epoch milliseconds.
    `create table names (
      name text primary key,
      suffix text not null,
      address text not null,
      coin_type bigint not null,
      attributes jsonb not null,
      registered_at bigint not null,
      updated_at bigint not null
    )`,
    'create unique index names_holder on names (address, suffix)',
    // The signed registrations already used (their EIP-191 hash with the address), so none is sent twice;
    // kept past the 10 minutes a message's timestamp is good for, then pruned.
    `create table name_registrations (
      key text primary key,
      used_at bigint not null
    )`,
    'create index name_registrations_age on name_registrations (used_at)',
  ],
}
