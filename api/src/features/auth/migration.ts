import type { Migration } from '../../internal/migrations.ts'

/** The caps on codes over time (`Caps.ts`), appended by `internal/migrations.ts`. */
export const codeCapsMigration: Migration = {
  name: 'code caps per client',
  statements: [
    // Every code sent and every wrong code, with the address and purpose it was for and the client address
    // that asked (`Limits.clientOf`), kept as long as the longest window of a cap. Replaces
    // auth_code_failures, which counted wrong codes per address and purpose alone: its rows come along with
    // an unknown client ('').
    `create table auth_code_events (
      kind text not null,
      email text not null,
      purpose text not null,
      client text not null,
      at bigint not null
    )`,
    'create index auth_code_events_address on auth_code_events (kind, email, purpose, at)',
    'create index auth_code_events_client on auth_code_events (kind, client, at)',
    'create index auth_code_events_age on auth_code_events (kind, at)',
    `insert into auth_code_events (kind, email, purpose, client, at)
     select 'wrong', email, purpose, '', failed_at from auth_code_failures`,
    'drop table auth_code_failures',
  ],
}

/** Where a social login that left the page comes back to (`social.ts`'s `return`), appended likewise. */
export const socialReturnMigration: Migration = {
  name: 'social login return',
  statements: [
    // Kept with the state at the start, after its origin was checked against the project's list: the callback
    // sends the visitor back there and nowhere else, whatever its own query says.
    'alter table auth_social_states add column return_to text',
  ],
}
